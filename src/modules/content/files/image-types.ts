import { imageSize } from 'image-size';

/** Detected image format (image-size's names) → the media types it may be declared as, the first canonical. */
export const IMAGE_TYPES: Record<string, string[]> = {
  png: ['image/png'],
  jpg: ['image/jpeg', 'image/jpg'],
  gif: ['image/gif'],
  webp: ['image/webp'],
  bmp: ['image/bmp'],
  tiff: ['image/tiff'],
  svg: ['image/svg+xml'],
  ico: ['image/x-icon', 'image/vnd.microsoft.icon'],
  cur: ['image/x-icon'],
  avif: ['image/avif'],
  heif: ['image/heic', 'image/heif'],
  jxl: ['image/jxl'],
  psd: ['image/vnd.adobe.photoshop'],
};

export interface DetectedImage {
  /** The canonical media type of the detected format. */
  contentType: string;
  /** Every media type the format may be declared as. */
  accepted: string[];
  width: number;
  height: number;
}

/** What the bytes are, read from their signature (never from a declared type): null when not an image. */
export function detectImage(bytes: Uint8Array): DetectedImage | null {
  let detected: ReturnType<typeof imageSize> | null;
  try {
    detected = imageSize(bytes);
  } catch {
    return null;
  }
  const accepted = detected?.type ? IMAGE_TYPES[detected.type] : undefined;
  if (!accepted) return null;
  return { contentType: accepted[0], accepted, width: detected!.width, height: detected!.height };
}
