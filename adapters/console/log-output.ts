import { Writable } from 'node:stream';

// The console chat's log destination: each (already redacted, formatted) log line is printed above the prompt,
// which is drawn again with what the user had typed, instead of landing in the middle of it.

export function consoleLogOutput(print: (text: string) => void): Writable {
  return new Writable({
    decodeStrings: false,
    write(chunk: unknown, _encoding, callback) {
      print(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      callback();
    },
  });
}
