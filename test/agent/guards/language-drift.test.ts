import { describe, expect, it } from 'vitest';
import { languageRetryStep, languageStep } from '../../../agent/guards/index.js';
import { expectedAnswerLanguage, questionLanguage } from '../../../agent/guards/language-drift-request.js';
import { countScripts } from '../../../agent/guards/language-drift-scripts.js';
import type { Language } from '../../../src/shared/types.js';
import { turnRecord } from '../../support/turn-record.js';

// Language drift from realistic small-model outputs: which answers the turn asks again for, and which it leaves.

interface Case {
  question: string;
  answer: string;
  language?: Language;
}

const gold = 'ราคาทองวันนี้เท่าไหร่';

const drifted: [string, Case, string][] = [
  [
    'a Chinese answer to a Thai question',
    { question: gold, answer: '根据搜索结果，今天泰国金条的卖出价为每泰铢重 41,050 泰铢，比昨天上涨了 0.52%。' },
    'Chinese',
  ],
  [
    'Chinese with an English product name',
    { question: 'ติดตั้ง Docker บน Ubuntu ยังไง', answer: '您可以使用以下命令在 Ubuntu 上安装 Docker：首先更新软件包索引，然后安装 docker.io 软件包。' },
    'Chinese',
  ],
  [
    'a Japanese answer',
    { question: 'แนะนำที่เที่ยวโตเกียวหน่อย', answer: '東京のおすすめ観光地は浅草寺、渋谷スクランブル交差点、東京スカイツリーです。' },
    'Japanese',
  ],
  ['a Korean answer', { question: 'กิมจิทำยังไง', answer: '김치는 배추를 소금에 절인 후 고춧가루, 마늘, 생강과 함께 버무려 만듭니다.' }, 'Korean'],
  [
    'an English answer that is not a refusal',
    { question: gold, answer: 'Today the gold bar selling price is 41,050 baht per baht-weight, up 0.52% from yesterday.' },
    'English',
  ],
  [
    'English prose with a stray ครับ at the end',
    {
      question: 'วิธีลดความเครียด',
      answer: `${'To reduce stress, try regular exercise, enough sleep, and short breaks during the day. '.repeat(3)}ครับ`,
    },
    'English',
  ],
  [
    'an English answer with its code block to a Thai non-code question',
    {
      question: 'อธิบายว่า DNS ทำงานยังไง',
      answer: 'DNS translates domain names into IP addresses. For example:\n```\ndig example.com\n```\nThe resolver asks the root servers first.',
    },
    'English',
  ],
  [
    'English to a question that is only a URL (Thai bot)',
    {
      question: 'https://www.bangkokpost.com/business/2876543',
      answer: 'The article reports that the Bank of Thailand kept its policy rate unchanged this week.',
    },
    'English',
  ],
  ['Chinese to a question of emoji and numbers', { question: '👍 555', answer: '谢谢你的支持！如果还有其他问题，请随时告诉我。' }, 'Chinese'],
  [
    'English bot: Thai answer to an English question',
    { question: 'What is the capital of Thailand?', answer: 'เมืองหลวงของประเทศไทยคือกรุงเทพมหานคร', language: 'en' },
    'Thai',
  ],
  [
    'English bot: Chinese answer to an English question',
    { question: 'How do I reset my password?', answer: '您可以在设置页面点击忘记密码来重置您的密码。', language: 'en' },
    'Chinese',
  ],
  ['English bot: Chinese answer to a Thai question', { question: gold, answer: '今天金条的卖出价是每泰铢重 41,050 泰铢。', language: 'en' }, 'Chinese'],
];

const left: [string, Case][] = [
  ['a Thai answer', { question: gold, answer: 'ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท เพิ่มขึ้น 0.52%' }],
  [
    'Thai with English product names',
    { question: 'ควรใช้ IDE ตัวไหนดี', answer: 'แนะนำ Visual Studio Code หรือ JetBrains IntelliJ IDEA ครับ ถ้าเขียน Python ก็ใช้ PyCharm Community Edition ได้ฟรี' },
  ],
  [
    'a name list held together by Thai',
    { question: 'ต้องติดตั้งอะไรบ้าง', answer: 'ติดตั้ง Visual Studio Code, Node.js, Docker Desktop, Kubernetes, PostgreSQL และ Redis ก่อน' },
  ],
  [
    'Thai with a code block and a command',
    {
      question: 'รัน container ยังไง',
      answer: 'ใช้คำสั่งนี้ครับ:\n```bash\ndocker run --rm -it -p 8080:80 --name web nginx:latest\ndocker logs -f web\n```\nแล้วเปิด http://localhost:8080 ในเบราว์เซอร์',
    },
  ],
  [
    'a mixed Thai/English technical answer',
    {
      question: 'Kubernetes pod ค้าง CrashLoopBackOff แก้ยังไง',
      answer:
        'CrashLoopBackOff แปลว่า container start แล้ว crash ซ้ำ ๆ ให้ดู `kubectl logs <pod> --previous` ก่อน ส่วนใหญ่เกิดจาก missing environment variable, wrong image tag หรือ liveness probe ที่ timeout สั้นเกินไป',
    },
  ],
  ['a Thai answer with a Markdown link', { question: 'อ่านข่าวที่ไหนดี', answer: 'อ่านได้ที่ [Thai PBS News](https://www.thaipbs.or.th/news/content/12345) ครับ' }],
  ['an English answer to แปลเป็นภาษาอังกฤษ', { question: 'แปลเป็นภาษาอังกฤษ: วันนี้อากาศดีมาก', answer: 'The weather is very nice today.' }],
  [
    'an English answer to ตอบเป็นภาษาอังกฤษ',
    { question: 'อธิบาย recursion ตอบเป็นภาษาอังกฤษ', answer: 'Recursion is when a function calls itself to solve a smaller part of the same problem.' },
  ],
  ['a Chinese answer to เป็นภาษาจีน', { question: 'คำว่าขอบคุณเป็นภาษาจีนพูดว่าอะไร', answer: '谢谢 (xièxie) 是最常用的说法，也可以说 感谢 (gǎnxiè)。' }],
  ['an answer to "translate"', { question: 'translate สวัสดีตอนเช้า please', answer: 'Good morning, how are you doing today?' }],
  [
    'a code answer to เขียนโค้ด python',
    {
      question: 'เขียนโค้ด python อ่านไฟล์ csv',
      answer:
        'Here is the code:\n```python\nimport csv\nwith open("data.csv") as file:\n    for row in csv.reader(file):\n        print(row)\n```\nThis reads each row and prints it.',
    },
  ],
  [
    'code only, asked for',
    { question: 'ขอแค่โค้ด bash ลบไฟล์ .log ทั้งหมด', answer: 'Use find with the delete flag: find . -name "*.log" -delete and you are done.' },
  ],
  ['a bare URL', { question: 'เว็บสมาคมค้าทองคำคืออะไร', answer: 'https://www.goldtraders.or.th/' }],
  ['a number', { question: 'ราคาทองวันนี้เท่าไหร่ ตอบแค่ตัวเลข', answer: '41,050' }],
  ['a name', { question: 'ใครเป็นคนวาดโมนาลิซ่า', answer: 'Leonardo da Vinci' }],
  ['a short Chinese name', { question: 'ชื่อภาษาจีนของปักกิ่ง', answer: '北京' }],
  ['an English stock refusal (the refusal guard’s)', { question: gold, answer: "I'm sorry, but I can't browse the internet." }],
  [
    'an English answer to an English question (Thai bot)',
    { question: 'What is the capital of Thailand?', answer: 'The capital of Thailand is Bangkok, also called Krung Thep.' },
  ],
  ['a Thai answer to an English question (Thai bot)', { question: 'What is the capital of Thailand?', answer: 'เมืองหลวงของประเทศไทยคือกรุงเทพมหานคร' }],
  ['a Chinese question answered in Chinese', { question: '泰国的首都是哪里？', answer: '泰国的首都是曼谷，也被称为“天使之城”。' }],
  [
    'English bot: English answer with Thai names',
    { question: 'Where should I eat in Bangkok?', answer: 'Try Jay Fai (เจ๊ไฝ) in the old town for crab omelette.', language: 'en' },
  ],
  [
    'English bot: "answer in Thai" answered in Thai',
    { question: 'Explain DNS, answer in Thai please', answer: 'DNS คือระบบที่แปลงชื่อโดเมนเป็นหมายเลข IP', language: 'en' },
  ],
];

function verdictOf({ question, answer, language = 'th' }: Case) {
  return languageStep(turnRecord({ question, finalText: answer, language }));
}

describe('language drift: asked again', () => {
  it.each(drifted)('%s', (_name, input, script) => {
    const verdict = verdictOf(input);
    expect(verdict.action).toBe('retry');
    if (verdict.action !== 'retry') return;
    expect(verdict.event).toMatchObject({ guard: 'language', action: 'retry' });
    expect(verdict.event.reason).toContain(`answer in ${script}`);
    expect(verdict.instruction).toContain(verdict.expected === 'th' ? 'ภาษาไทย' : 'in English');
  });
});

describe('language drift: left alone', () => {
  it.each(left)('%s', (_name, input) => {
    expect(verdictOf(input)).toEqual({ action: 'pass' });
  });

  it('does not run after the step limit or on an empty answer (the refusal guard answers those)', () => {
    expect(languageStep(turnRecord({ finalText: '金价是 41,050 泰铢每泰铢重，比昨天上涨。', stopReason: 'step-limit' }))).toEqual({ action: 'pass' });
    expect(languageStep(turnRecord({ finalText: '' }))).toEqual({ action: 'pass' });
  });
});

describe('after the one retry', () => {
  const original = '今天金条的卖出价是每泰铢重 41,050 泰铢。';
  const after = (retried: string, expected: Language = 'th') => languageRetryStep(turnRecord({ finalText: retried }), { original, expected });

  it('keeps a retry in the expected language', () => {
    expect(after('ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท')).toEqual({ action: 'pass' });
    expect(after('Gold bars sell at 41,050 baht today.', 'en')).toEqual({ action: 'pass' });
  });

  it.each([
    ['still Chinese', '今天金条的卖出价是每泰铢重 41,050 泰铢，请参考。'],
    ['empty (a cut stream)', ''],
    ['a stock refusal', "I'm sorry, but I can't translate that."],
  ])('%s: a Thai notice above the original answer', (_name, retried) => {
    const outcome = after(retried);
    expect(outcome.action).toBe('warn');
    if (outcome.action !== 'warn') return;
    expect(outcome.text).toBe(`(โมเดลตอบเป็นภาษาอื่น และเขียนเป็นภาษาไทยใหม่ไม่สำเร็จ คำตอบเดิมอยู่ด้านล่าง)\n\n${original}`);
    expect(outcome.event).toMatchObject({ guard: 'language', action: 'warn' });
  });

  it('says the notice in English for an English question', () => {
    const outcome = after('เมืองหลวงคือกรุงเทพมหานคร ซึ่งเป็นเมืองที่ใหญ่ที่สุด', 'en');
    expect(outcome.action === 'warn' && outcome.text.startsWith('(The model answered in another language')).toBe(true);
  });
});

describe('what the question asks for', () => {
  it.each([
    ['ราคาทองวันนี้เท่าไหร่', 'th'],
    ['Docker compose ไม่ทำงาน ขึ้น error ว่า port is already allocated', 'th'],
    ['What does ครับ mean in English grammar terms and when is it used?', 'mixed'],
    ['How do I reset my password?', 'en'],
    ['https://example.com/a/b?c=1', 'unclear'],
    ['🙏🙏 123', 'unclear'],
    ['你好', 'other'],
  ] as const)('%s → %s', (question, expected) => {
    expect(questionLanguage(question)).toBe(expected);
  });

  it.each([
    ['แปลเป็นภาษาไทย: good morning', 'en', 'th'],
    ['translate to English: สวัสดี', 'th', undefined],
    ['แปลประโยคภาษาไทยนี้เป็นภาษาอังกฤษ', 'th', undefined],
    ['อันนี้แปลกมาก ทำไมเป็นแบบนี้', 'th', 'th'],
    ['123', 'en', 'en'],
  ] as const)('%s (bot %s) → %s', (question, bot, expected) => {
    expect(expectedAnswerLanguage(question, bot)).toBe(expected);
  });
});

describe('script counts', () => {
  it('skips code blocks, inline code, URLs and link targets', () => {
    const counts = countScripts('ดู `npm install` ที่ https://docs.npmjs.com/cli และ [คู่มือ](https://example.com/guide)\n```\nconsole.log("hello world")\n```');
    expect(counts).toEqual({ thai: 14, han: 0, kana: 0, hangul: 0, latin: 0, latinWords: 0 });
  });
});
