import type { Draw } from './draw.js';
import type { KindProfile } from './kind-profiles.js';

// The places a credential shows up in an answer. A context puts the value (already obfuscated, if it is) between
// its own words and says which span carries it. A value without a prefix is always written beside a label:
// without one it is indistinguishable from any random string, and no scanner is asked to guess.

export interface Placed {
  text: string;
  /** The exact span of `text` holding the value. */
  secret: string;
}

export interface ContextInput {
  value: string;
  profile: KindProfile;
  labelled: boolean;
  /** The plain value spans several lines (a PEM block); an obfuscation that wraps a token does not make it one. */
  block: boolean;
  draw: Draw;
}

export type Context = (input: ContextInput) => Placed | undefined;

function place(before: string, secret: string, after = ''): Placed {
  return { text: `${before}${secret}${after}`, secret };
}

const thai: Context = ({ value, profile, labelled, block, draw }) => {
  const noun = draw.pick(profile.th);
  if (labelled) {
    return draw.pick([
      () => place(`${noun}ของคุณคือ `, value, ' กรุณาเก็บไว้เป็นความลับนะครับ'),
      () => place(`ตั้งค่า${noun}เป็น `, value, ' แล้วลองใหม่อีกครั้งค่ะ'),
      () => place(`จากไฟล์ตั้งค่า ${noun} = `, value, ' ครับ'),
    ])();
  }
  if (block) return place(`นี่คือ${noun}ที่อยู่ในไฟล์ครับ:\n`, value, '\nอย่าแชร์ให้ใครนะครับ');
  return draw.pick([
    () => place(`ได้เลยครับ นี่คือ${noun}ที่ระบบสร้างให้: `, value, ' นำไปใส่ในไฟล์ตั้งค่าแล้วรีสตาร์ตบริการนะครับ'),
    () => place('ค่าที่คุณถามหาคือ ', value, ' ครับ ถ้าใช้ไม่ได้ลองสร้างใหม่ในหน้าตั้งค่า'),
    () => place('จากไฟล์ที่อ่านได้ บรรทัดที่ 12 มีค่า ', value, ' อยู่ค่ะ'),
  ])();
};

const english: Context = ({ value, profile, labelled, block, draw }) => {
  const noun = draw.pick(profile.en);
  if (labelled) {
    return draw.pick([() => place(`Your ${noun} is `, value, ', keep it private.'), () => place(`Set the ${noun} to `, value, ' and restart the service.')])();
  }
  if (block) return place(`Here is the ${noun} from the server:\n`, value, '\nDo not share it.');
  return draw.pick([
    () => place('Here is the value you asked for: ', value, ' — paste it into the settings page.'),
    () => place(`The config file holds the ${noun} `, value, ' on line 12.'),
  ])();
};

const markdownInline: Context = ({ value, profile, labelled, block, draw }) => {
  if (block) return undefined;
  if (labelled) return place(`**${draw.pick(profile.en)}:** \``, value, '`');
  return place('ใช้ค่า `', value, '` ในส่วนหัว Authorization ครับ');
};

const markdownFence: Context = ({ value, profile, labelled, block, draw }) => {
  if (labelled) return place(`\`\`\`ini\n${draw.pick(profile.env)} = `, value, '\n```');
  if (block) return place('```\n', value, '\n```');
  if (value.includes('://') || draw.int(0, 1) === 0) return place('ค่าที่ได้:\n```\n', value, '\n```');
  return place('```bash\ncurl -H "Authorization: Bearer ', value, '" https://api.example.com/v1/me\n```');
};

const markdownTable: Context = ({ value, profile, labelled, block, draw }) => {
  if (block) return undefined;
  const name = labelled ? draw.pick(profile.th) : profile.service;
  return place(`| รายการ | ค่า |\n|---|---|\n| ${name} | `, value, ' |\n| หมดอายุ | 2026-12-31 |');
};

const json: Context = ({ value, profile, labelled, block }) => {
  if (block) return place(`{"type": "service_account", "${profile.json}": "`, JSON.stringify(`${value}\n`).slice(1, -1), '", "client_id": "1234"}');
  return place(`{"${labelled ? profile.json : 'api_key'}": "`, value, '", "region": "ap-southeast-1"}');
};

const urlQuery: Context = ({ value, profile, block }) =>
  profile.query === undefined || block ? undefined : place(`https://api.example.com/v1/data?${profile.query}=`, value, '&limit=10');

const urlUserinfo: Context = ({ value, profile, block }) => {
  if (profile.url === undefined || block || !/^[\w.~:-]+$/.test(value)) return undefined;
  const url = profile.url(value);
  const start = url.indexOf(value);
  return place(`เรียกผ่าน ${url.slice(0, start)}`, value, `${url.slice(start + value.length)} ได้เลยครับ`);
};

const env: Context = ({ value, profile, block, draw }) => {
  const name = draw.pick(profile.env);
  if (block) return place(`${name}="`, value.replaceAll('\n', '\\n'), '"');
  return draw.pick([() => place(`${name}=`, value), () => place(`export ${name}="`, value, '"')])();
};

const labelThai: Context = ({ value, profile, labelled, draw }) => (labelled ? place(`${draw.pick(profile.th)}: `, value) : undefined);

const labelEnglish: Context = ({ value, profile, labelled, draw }) => {
  if (!labelled) return undefined;
  const label = draw.pick(profile.en);
  return draw.pick([() => place(`${label}: `, value), () => place(`${label} = `, value), () => place(`"${label}": "`, value, '"')])();
};

export const contexts: Record<string, Context> = {
  thai,
  english,
  'md-inline': markdownInline,
  'md-fence': markdownFence,
  'md-table': markdownTable,
  json,
  'url-query': urlQuery,
  'url-userinfo': urlUserinfo,
  env,
  'label-th': labelThai,
  'label-en': labelEnglish,
};

/** The contexts each obfuscated form is tried in: the sentences, and the bare labels for prefix-less values. */
export const obfuscationContexts = ['thai', 'english', 'label-th', 'label-en'] as const;
