// A download body read with a hard cap: it fails as soon as the bytes pass `maxBytes`, since a missing or lying
// content-length is no help against a file larger than the core takes.

export async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number, tooLarge: (size: number) => Error): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(total);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
