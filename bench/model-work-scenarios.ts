import type { ScriptStep } from '../test/fakes/model-server.js';
import { isRelevanceCheck, judgeByLabels } from './model-work-relevance.js';
import { knowledgeBase, research, type World } from './model-work-world.js';

// The scenarios of `bench -- model-work`: each scripts the fake model's answers and sends Thai messages through the
// real app, as the end-to-end tests of the same behaviour do (test/e2e/web/, knowledge/, guards/,
// test/agent/language-drift-turn.test.ts). The bench only reads what the app asked the model.

export interface ScenarioContext {
  world: World;
  /** A conversation id unique to this scenario and round. */
  conversation(name?: string): string;
  /** Turns per conversation where a scenario has several. */
  turns: number;
  documentPath: string;
}

export interface Scenario {
  name: string;
  /** "naive": a model without tools (knowledge-base passages go into the question). */
  world: 'tools' | 'naive';
  /** Part of the short `--quick` run. */
  quick: boolean;
  run(context: ScenarioContext): Promise<void>;
}

const listFiles: ScriptStep = { toolCalls: [{ name: 'list_files', arguments: {} }] };
const facts = (items: [string, string][]) => JSON.stringify({ facts: items.map(([fact, url]) => ({ fact, url })) });

/** One message to a conversation, the model's answers scripted first. */
async function say(context: ScenarioContext, text: string, steps: ScriptStep[], conversation = context.conversation(), attachments?: string[]): Promise<void> {
  context.world.fake.script(...steps);
  await context.world.ask(text, conversation, attachments);
}

/** /kb create, add (the document attached), bind: commands, which never reach the model. */
async function bindKnowledgeBase(context: ScenarioContext): Promise<void> {
  await say(context, `/kb create ${knowledgeBase.name} นโยบายฝ่ายบุคคล`, []);
  await say(context, `/kb add ${knowledgeBase.name}`, [], context.conversation(), [context.documentPath]);
  await say(context, `/kb bind ${knowledgeBase.name}`, []);
}

// Follow-up turns of one conversation: plain answers, and one turn with a tool call (its chain is not kept in history).
const followUps: { question: string; steps: ScriptStep[] }[] = [
  { question: 'ช่วยแนะนำเมนูอาหารเช้าที่ทำง่าย ๆ หน่อยครับ', steps: [{ text: 'ลองข้าวต้มหมู ไข่กระทะ หรือโจ๊กดูครับ ทำง่ายและอิ่มท้อง' }] },
  { question: 'มีไฟล์สูตรอาหารที่เคยบันทึกไว้ไหม', steps: [listFiles, { text: 'ยังไม่มีไฟล์สูตรอาหารที่บันทึกไว้ครับ' }] },
  { question: 'แล้วถ้าไม่กินหมูล่ะ', steps: [{ text: 'เปลี่ยนเป็นข้าวต้มปลาหรือโจ๊กไก่แทนได้ครับ' }] },
];

const naiveTurns = [
  { question: 'พนักงานประจำลาพักร้อนได้กี่วันต่อปี', answer: 'ลาพักร้อนได้ 12 วันต่อปีครับ' },
  { question: 'ลาป่วยกี่วันต้องมีใบรับรองแพทย์', answer: 'ลาป่วยเกิน 3 วันติดต่อกันต้องแนบใบรับรองแพทย์ครับ' },
  { question: 'ลาพักร้อนต้องแจ้งหัวหน้าล่วงหน้ากี่วัน', answer: 'ต้องแจ้งหัวหน้างานล่วงหน้าอย่างน้อย 3 วันทำการครับ' },
];

const interleaved = ['ช่วยแนะนำหนังสือนิยายไทยสักเล่ม', 'ขอเล่มอื่นอีกเล่มได้ไหม', 'เล่มไหนอ่านง่ายที่สุด'];

export const scenarios: Scenario[] = [
  {
    name: 'chat',
    world: 'tools',
    quick: true,
    run: (context) => say(context, 'สวัสดีครับ แสงช่วยอะไรได้บ้าง', [{ text: 'สวัสดีครับ ผมช่วยตอบคำถาม ค้นเว็บ และค้นคลังความรู้ให้ได้ครับ' }]),
  },
  {
    name: 'follow-ups',
    world: 'tools',
    quick: true,
    run: async (context) => {
      for (let turn = 0; turn < context.turns; turn++) {
        const { question, steps } = followUps[turn % followUps.length] ?? { question: '', steps: [] };
        await say(context, question, steps);
      }
    },
  },
  {
    name: 'web-search',
    world: 'tools',
    quick: true,
    // The relevance check (SEARCH_LLM_FILTER) asks the model YES/NO between the two steps about the results code
    // cannot decide (`on`: here none, every result has the question's words; the baseline's `always`: every result).
    run: (context) =>
      say(context, 'ราคาทองคำวันนี้เท่าไหร่', [
        { toolCalls: [{ name: 'web_search', arguments: { query: 'ราคาทองคำวันนี้' } }] },
        { when: isRelevanceCheck, reply: judgeByLabels },
        { text: 'ราคาทองคำแท่งวันนี้รับซื้อ 47,050 บาท ขายออก 47,150 บาท ตามประกาศสมาคมค้าทองคำ' },
      ]),
  },
  {
    name: 'web-search-unclear',
    world: 'tools',
    quick: false,
    // Results of the labelled set (test/fixtures/search/relevance-labelled.json): two have every word of the question,
    // two (another city) lack one and go to the model's check, which answers as the labels say.
    run: (context) =>
      say(context, 'ร้านกาแฟน่านั่งเชียงใหม่มีร้านไหนบ้าง', [
        { toolCalls: [{ name: 'web_search', arguments: { query: 'ร้านกาแฟน่านั่งเชียงใหม่' } }] },
        { when: isRelevanceCheck, reply: judgeByLabels },
        { text: 'ลองร้านกาแฟย่านนิมมานในเชียงใหม่ดูครับ บรรยากาศดีและนั่งชิลได้' },
      ]),
  },
  {
    name: 'kb-query',
    world: 'tools',
    quick: false,
    run: async (context) => {
      await bindKnowledgeBase(context);
      await say(context, 'พนักงานประจำลาพักร้อนได้กี่วันต่อปี', [
        { toolCalls: [{ name: 'query_knowledge', arguments: { action: 'query', query_text: 'ลาพักร้อน' } }] },
        { text: 'ลาพักร้อนได้ 12 วันต่อปีครับ' },
      ]);
    },
  },
  {
    name: 'naive-rag',
    world: 'naive',
    quick: false,
    // Follow-ups on one document (at least two turns): history keeps the passages as sent, and one it still carries
    // is named in a later question, not repeated (the baseline re-sends it and stores none).
    run: async (context) => {
      await bindKnowledgeBase(context);
      for (let turn = 0; turn < Math.max(2, context.turns); turn++) {
        const { question, answer } = naiveTurns[turn % naiveTurns.length] ?? { question: '', answer: '' };
        await say(context, question, [{ text: answer }]);
      }
    },
  },
  {
    name: 'blocked-repeat',
    world: 'tools',
    quick: false,
    // 2nd identical call: the earlier result with a warning; 3rd: blocked, and the answer comes without tools.
    run: (context) => say(context, 'ในพื้นที่ไฟล์มีอะไรบ้าง', [listFiles, listFiles, listFiles, { text: 'ยังไม่มีไฟล์ในพื้นที่ของแชตนี้ครับ' }]),
  },
  {
    name: 'language-retry',
    world: 'tools',
    quick: false,
    // A Chinese answer to a Thai question is asked for once more, without tools, on the turn's messages.
    run: (context) =>
      say(context, 'ในพื้นที่ไฟล์ของแชตนี้มีไฟล์อะไรบ้าง', [
        listFiles,
        { text: '根据查询结果，这个聊天的文件区域目前还没有任何文件。' },
        { text: 'ตอนนี้ยังไม่มีไฟล์ในพื้นที่ของแชตนี้ครับ' },
      ]),
  },
  {
    name: 'deep-research',
    world: 'tools',
    quick: false,
    // The tool's helper calls (facts, gaps, facts, synthesis) go to the same model between the turn's two steps.
    run: (context) =>
      say(context, `${research.question} ช่วยค้นคว้าละเอียด ๆ หน่อย`, [
        { toolCalls: [{ name: 'deep_research', arguments: { question: research.question } }] },
        {
          text: facts([
            ['ข้าวหอมมะลิผ่านการขัดสี ส่วนข้าวกล้องยังมีรำข้าวและจมูกข้าว', research.sources.milling.url],
            ['ข้าวกล้องมีใยอาหารมากกว่าข้าวหอมมะลิ', research.sources.fibre.url],
            ['ข้าวกล้องหุงนานกว่าและนุ่มน้อยกว่า', research.sources.cooking.url],
          ]),
        },
        { text: JSON.stringify({ gaps: ['ผลต่อน้ำตาลในเลือด'], queries: [research.followUp] }) },
        {
          text: facts([
            ['ข้าวกล้องมีดัชนีน้ำตาลต่ำกว่าข้าวหอมมะลิ', research.sources.glycaemic.url],
            ['ข้าวกล้องย่อยช้ากว่า น้ำตาลในเลือดขึ้นช้ากว่า', research.sources.digestion.url],
          ]),
        },
        { text: 'ข้าวหอมมะลิขัดสีแล้ว ข้าวกล้องยังมีรำและจมูกข้าว [1] มีดัชนีน้ำตาลต่ำกว่า [4] ใยอาหารมากกว่า [2] แต่หุงนานกว่า [3]' },
        { text: 'ข้าวกล้องยังมีรำและจมูกข้าว [1] ดัชนีน้ำตาลต่ำกว่า [2] ใยอาหารมากกว่า [3] แต่หุงนานกว่าข้าวหอมมะลิ [4]' },
      ]),
  },
  {
    name: 'interleaved',
    world: 'tools',
    quick: true,
    // Two conversations taking turns on one slot: each prompt follows the other conversation's.
    run: async (context) => {
      for (let turn = 0; turn < context.turns; turn++) {
        for (const name of ['a', 'b']) {
          const question = `${interleaved[turn % interleaved.length] ?? ''} (ห้อง ${name})`;
          await say(context, question, [{ text: `ลองอ่านเรื่องสั้นของนักเขียนไทยดูครับ (ห้อง ${name})` }], context.conversation(name));
        }
      }
    },
  },
];
