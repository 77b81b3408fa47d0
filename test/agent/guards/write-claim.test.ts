import { describe, expect, it } from 'vitest';
import { answerClaimsSavedFile, checkWriteClaim, userAskedToWriteFile, writeClaimFailure } from '../../../agent/guards/write-claim.js';
import { toolCall, turnRecord } from '../../support/turn-record.js';

describe('userAskedToWriteFile', () => {
  const asks = [
    'ช่วยสรุปข่าวนี้แล้วบันทึกเป็นไฟล์ให้หน่อย',
    'บันทึกลงไฟล์ notes.md ด้วย',
    'เซฟเป็นไฟล์ csv ให้ที',
    'สร้างไฟล์รายชื่อลูกค้าให้หน่อยครับ',
    'เขียนลงไฟล์ชื่อ report.txt',
    'ขอไฟล์ json ของตารางนี้',
    'ทำเป็นไฟล์ markdown ได้ไหม',
    'ช่วยบันทึกเป็น summary.md',
    'Please save this summary to a file.',
    'write the table into report.csv',
    'Can you create a markdown file with the meeting notes?',
    'export the list as .json please',
  ];
  it.each(asks)('fires: %s', (question) => {
    expect(userAskedToWriteFile(question)).toBe(true);
  });

  const doesNotAsk = [
    'วิธีบันทึกไฟล์ใน Word ทำยังไง',
    'อ่านไฟล์ที่แนบมาให้หน่อย',
    'บันทึกการประชุมเมื่อวานอยู่ในไฟล์ไหน',
    'ทำไมไฟล์เปิดไม่ได้',
    'บันทึกไฟล์หรือยัง',
    'How do I save a file in Excel?',
    'Summarize the attached file.',
    'What is a CSV file?',
    'ราคาทองวันนี้เท่าไหร่',
  ];
  it.each(doesNotAsk)('does not fire: %s', (question) => {
    expect(userAskedToWriteFile(question)).toBe(false);
  });
});

describe('answerClaimsSavedFile', () => {
  it.each([
    'บันทึกไฟล์ notes.md เรียบร้อยแล้วครับ',
    'สร้างไฟล์ report.csv สำเร็จแล้ว',
    'ไฟล์สรุปถูกบันทึกไว้ที่ summary.md',
    "I've saved the summary to notes.md.",
    'The file has been created.',
  ])('claims: %s', (answer) => {
    expect(answerClaimsSavedFile(answer)).toBe(true);
  });

  it.each(['ยังไม่ได้บันทึกไฟล์ครับ', 'ถ้าต้องการ ผมบันทึกเป็นไฟล์ให้ได้', 'I have not saved any file yet.', 'I can save it to a file if you like.', 'ราคาทองวันนี้ 41,000 บาท'])(
    'no claim: %s',
    (answer) => {
      expect(answerClaimsSavedFile(answer)).toBe(false);
    },
  );
});

describe('checkWriteClaim', () => {
  const asked = 'สรุปแล้วบันทึกเป็นไฟล์ notes.md ให้หน่อย';

  it('retries once when asked and no write succeeded, with an instruction naming write_file', () => {
    const verdict = checkWriteClaim(turnRecord({ question: asked, finalText: 'บันทึกไฟล์เรียบร้อยแล้ว' }));
    expect(verdict.action).toBe('retry');
    if (verdict.action !== 'retry') return;
    expect(verdict.instruction).toMatch(/write_file/);
    expect(verdict.event).toMatchObject({ guard: 'write-claim', action: 'warn' });
  });

  it('retries when a write was only attempted and failed', () => {
    const failed = toolCall({ name: 'write_file', ok: false, result: 'ชนิดไฟล์ .exe ไม่อนุญาต' });
    expect(checkWriteClaim(turnRecord({ question: asked, toolCalls: [failed] })).action).toBe('retry');
  });

  it('retries when the answer claims a save nobody asked for', () => {
    const verdict = checkWriteClaim(turnRecord({ question: 'สรุปข่าวนี้', finalText: "I've saved it to summary.md" }));
    expect(verdict.action).toBe('retry');
  });

  it('passes when a write succeeded, or nothing was asked or claimed', () => {
    const written = toolCall({ name: 'write_file', ok: true });
    expect(checkWriteClaim(turnRecord({ question: asked, toolCalls: [written], finalText: 'บันทึกแล้ว' })).action).toBe('pass');
    expect(checkWriteClaim(turnRecord({ question: 'สรุปข่าวนี้', finalText: 'สรุปได้ว่า…' })).action).toBe('pass');
  });
});

describe('writeClaimFailure', () => {
  it('says honestly that nothing was saved, with the last error and the prepared content', () => {
    const failed = toolCall({ name: 'write_file', ok: false, result: 'ชนิดไฟล์ .exe ไม่อนุญาต\nรายละเอียด' });
    const failure = writeClaimFailure(turnRecord({ toolCalls: [failed], finalText: 'บันทึกแล้ว:\n```csv\nชื่อ,อายุ\nสมชาย,30\n```' }));
    expect(failure.text).toMatch(/ยังไม่ได้บันทึกไฟล์ใด ๆ/);
    expect(failure.text).toMatch(/ชนิดไฟล์ \.exe ไม่อนุญาต/);
    expect(failure.text).not.toMatch(/รายละเอียด/);
    expect(failure.text).toMatch(/```csv\nชื่อ,อายุ/);
    expect(failure.event).toMatchObject({ guard: 'write-claim', action: 'rewrite' });
  });

  it('is English for an English turn', () => {
    expect(writeClaimFailure(turnRecord({ language: 'en' })).text).toMatch(/^Sorry, no file was saved/);
  });
});
