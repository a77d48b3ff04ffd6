/**
 * TANDEM_S3_URL: `https://ACCESS_KEY:SECRET_KEY@host[:port]/bucket[/prefix][?region=REGION]`.
 *
 * The scheme is the endpoint's own (`https://`, or `http://` for a store on a private network such as
 * MinIO beside the relays): an `s3://` URL would leave it to be guessed. The bucket is the first path
 * segment and requests name it there (path-style addressing), which MinIO, Ceph, Garage and most
 * self-hosted stores need and AWS still serves; the rest of the path is a prefix inside the bucket.
 * The region defaults to the one an AWS host names (`s3.eu-central-1.amazonaws.com`), else `us-east-1`,
 * which is what MinIO expects unless it was set up with another.
 *
 * Messages never repeat the value: it holds the secret key.
 */
export interface S3Location {
  /** `https://host:port`, without credentials. */
  endpoint: string;
  bucket: string;
  /** "" or a path ending in "/", put before every key. */
  prefix: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** The form, for messages. */
export const S3_URL_FORM = 'https://ACCESS_KEY:SECRET_KEY@host[:port]/bucket[/prefix][?region=REGION]';

// S3's bucket naming rules: 3-63 lowercase letters, digits, dots and hyphens, starting and ending alphanumeric.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^[A-Za-z0-9._-]+$/;
const REGION = /^[a-z0-9-]{1,32}$/;
/** s3.eu-central-1.amazonaws.com, s3-eu-west-1.amazonaws.com, s3.dualstack.us-east-2.amazonaws.com */
const AWS_HOST = /^s3[.-](?:dualstack\.)?([a-z0-9-]+)\.amazonaws\.com$/;

export class S3UrlError extends Error {}

/** Reads TANDEM_S3_URL; S3UrlError with what is wrong (and never the value) when it cannot. */
export function parseS3Url(value: string): S3Location {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new S3UrlError(`TANDEM_S3_URL must be a URL of the form ${S3_URL_FORM}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new S3UrlError(
      `TANDEM_S3_URL must start with https:// or http:// (how the object store is reached; s3:// would not say which): ${S3_URL_FORM}`,
    );
  }
  if (!url.username || !url.password) {
    throw new S3UrlError(
      `TANDEM_S3_URL must carry the access key and the secret key before the host: ${S3_URL_FORM} (percent-encode "/", "+", "@" and ":" in them, e.g. "/" as %2F)`,
    );
  }
  let accessKeyId: string;
  let secretAccessKey: string;
  try {
    accessKeyId = decodeURIComponent(url.username);
    secretAccessKey = decodeURIComponent(url.password);
  } catch {
    throw new S3UrlError('TANDEM_S3_URL: the access key or the secret key is not validly percent-encoded');
  }
  const [bucket = '', ...prefix] = url.pathname.split('/').filter(Boolean);
  if (!bucket) throw new S3UrlError(`TANDEM_S3_URL must name the bucket as the first part of its path: ${S3_URL_FORM}`);
  if (!BUCKET.test(bucket)) {
    throw new S3UrlError(
      'TANDEM_S3_URL: the bucket name must be 3-63 lowercase letters, digits, dots or hyphens, starting and ending with a letter or digit',
    );
  }
  if (!prefix.every((segment) => PREFIX_SEGMENT.test(segment))) {
    throw new S3UrlError(
      'TANDEM_S3_URL: the prefix after the bucket may hold only letters, digits, ".", "_" and "-" between its slashes',
    );
  }
  if (url.hash) throw new S3UrlError('TANDEM_S3_URL must not have a #fragment');
  const unknown = [...url.searchParams.keys()].filter((name) => name !== 'region');
  if (unknown.length) {
    throw new S3UrlError(`TANDEM_S3_URL takes one query parameter, region (found ${unknown.length} other)`);
  }
  const region = url.searchParams.get('region') ?? AWS_HOST.exec(url.hostname)?.[1] ?? 'us-east-1';
  if (!REGION.test(region)) throw new S3UrlError('TANDEM_S3_URL: region must be a region name such as eu-central-1');
  return {
    endpoint: `${url.protocol}//${url.host}`,
    bucket,
    prefix: prefix.map((segment) => `${segment}/`).join(''),
    region,
    accessKeyId,
    secretAccessKey,
  };
}
