import { say, type Localized } from '../src/shared/i18n.js';
import type { Language, ModelCapabilities } from '../src/shared/types.js';
import { imageTextBlock, imageTextSection } from './image-text-block.js';
import type { TurnImages } from './turn-images.js';
import { neutralizeSourceMarkers } from '../src/shared/source-markers.js';

// A model that cannot see, or cannot call read_image, gets the OCR text of the turn's images with the question:
// without vision the text is all it can know of an image, so reading it up front saves a model round trip, and a
// small model often answers "I cannot see images" instead of calling the tool. No progress message: a few seconds
// of OCR are covered by the typing indicator.

const attachedList: Localized = {
  th: '[รูปที่แนบมา: {list} — อ่านตัวหนังสือในรูปได้ด้วย read_image]',
  en: '[Attached images: {list} — read the text in them with read_image]',
};

/** For a model that sees and calls tools: which images there are, by the numbers read_image takes. */
export function attachedImagesLine(turnImages: TurnImages, capabilities: ModelCapabilities, language: Language): string | undefined {
  const { images } = turnImages;
  if (images.length === 0 || readsImagesUpFront(capabilities, images.length)) return undefined;
  const list = images.map((image, index) => `${index + 1}) ${neutralizeSourceMarkers(image.name)}`).join(' ');
  return say(attachedList, language, { list });
}

export function readsImagesUpFront(capabilities: ModelCapabilities, imageCount: number): boolean {
  return imageCount > 0 && (!capabilities.tools || !capabilities.vision);
}

/** The block for the newest user message, or undefined when the model is not given the text up front. */
export async function imageTextUpFront(turnImages: TurnImages, capabilities: ModelCapabilities, language: Language): Promise<string | undefined> {
  const { images } = turnImages;
  if (!readsImagesUpFront(capabilities, images.length)) return undefined;
  // One after the other: OCR is CPU-bound and the engine runs a bounded number of jobs anyway.
  const sections: string[] = [];
  for (const [index, image] of images.entries()) {
    sections.push(imageTextSection(index + 1, image.name, await turnImages.readText(index), language));
  }
  return imageTextBlock(sections, language);
}
