import type { Readable } from 'node:stream';
import { DomainError } from '../errors';

export type ImageKind = 'png' | 'jpg';

export const CONTENT_TYPES: Record<ImageKind, string> = { png: 'image/png', jpg: 'image/jpeg' };

/** A stored image's name: its 128-bit token and its kind. Anything else names no image, in any store. */
const IMAGE_NAME = /^[0-9A-Za-z]{22}\.(png|jpg)$/;

/** The kind of a well-formed image name, or undefined for a malformed one (never looked up). */
export function imageKindOf(name: string): ImageKind | undefined {
  return IMAGE_NAME.exec(name)?.[1] as ImageKind | undefined;
}

/** A stored image, opened for serving. */
export interface StoredImage {
  kind: ImageKind;
  body: Readable;
  /** Bytes, when the store knows them up front. */
  size?: number | undefined;
}

/**
 * One shelf of images (answers' screenshots, the step history's) named by a 128-bit random token: the
 * name in the URL is the capability, so serving one needs no API key. The data directory by default,
 * S3-compatible storage with TANDEM_S3_URL.
 */
export interface ImageStore {
  /** Stores an image and returns its name (`<token>.<kind>`); ScreenshotNotStored when the store refuses it. */
  save(image: Buffer, kind?: ImageKind): Promise<string>;
  /** The image by that name, or undefined when there is none (or the name is malformed). */
  open(name: string): Promise<StoredImage | undefined>;
  /** Deletes the images older than the shelf's time to live; returns how many. */
  sweep(now?: number): Promise<number>;
}

/** A screenshot was taken but the store would not keep it (disk full, no permission, S3 refusing or down). */
export class ScreenshotNotStored extends DomainError {
  /**
   * @param reason what went wrong, short, for an answer that goes out without its screenshot
   * @param advice what to do about it, for that answer
   * @param fix what to do about it when the screenshot itself was asked for (the error's message)
   */
  constructor(
    readonly reason: string,
    readonly advice: string,
    fix = advice,
  ) {
    super(
      'screenshot_not_stored',
      `The screenshot was taken but could not be stored: ${reason}. ${fix}, then retry.`,
      60,
    );
  }
}

/** A stored image could not be read back: the store is down or refuses the relay. */
export class ScreenshotStoreUnavailable extends DomainError {
  constructor(reason: string) {
    super(
      'store_unavailable',
      `The screenshot could not be read: ${reason}. Retry in a moment; if it lasts, check the object store that TANDEM_S3_URL names.`,
      5,
    );
  }
}
