/**
 * Uploads bounded: each at most UPLOAD_BODY_LIMIT (Fastify refuses a longer declared length, 413,
 * before reading it), at most MAX_UPLOADS at once and MAX_UPLOAD_BYTES between them, counted from
 * each request's declared length before its body is read (a body without a length counts as the
 * largest allowed), so a burst is refused with a 429 rather than buffered: eight concurrent 60 MB
 * replays took 850 MB. An upload's share is given back when its request ends, answered or aborted.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The largest replay the page may upload (a game's replay is tens of KB; a file on the server may be larger: replay-files.ts). */
export const MAX_UPLOAD_FILE_BYTES = 16 * 1024 * 1024;
/** An upload's request: the file's text in JSON, with room for its escapes. */
export const UPLOAD_BODY_LIMIT = MAX_UPLOAD_FILE_BYTES + 1024 * 1024;
export const MAX_UPLOADS = 2;
export const MAX_UPLOAD_BYTES = MAX_UPLOADS * UPLOAD_BODY_LIMIT;

export class UploadGate {
  private count = 0;
  private bytes = 0;

  constructor(
    private readonly bodyLimit: number,
    private readonly maxUploads = MAX_UPLOADS,
    private readonly maxBytes = MAX_UPLOAD_BYTES,
  ) {}

  /** A route's onRequest hook: the upload admitted (and released when it ends), or refused 429. */
  readonly admit = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const declared = Number(req.headers['content-length']);
    const size = Number.isFinite(declared) && declared >= 0 ? Math.min(declared, this.bodyLimit) : this.bodyLimit;
    // A refusal closes the connection: the body it does not read is not waited for.
    if (declared > this.bodyLimit) {
      reply
        .code(413)
        .header('connection', 'close')
        .send({ error: `refused: an upload of ${Math.round(declared / 1048576)} MB, more than the ${Math.round(this.bodyLimit / 1048576)} MB this server reads` });
      return reply;
    }
    if (this.count >= this.maxUploads || this.bytes + size > this.maxBytes) {
      reply
        .code(429)
        .header('connection', 'close')
        .header('retry-after', '2')
        .send({ error: `refused: ${this.count} upload${this.count === 1 ? '' : 's'} (${Math.round(this.bytes / 1048576)} MB) under way, the most this server reads at once is ${this.maxUploads} (${Math.round(this.maxBytes / 1048576)} MB): try again when they are done` });
      return reply;
    }
    this.count++;
    this.bytes += size;
    let released = false;
    reply.raw.once('close', () => {
      if (released) return;
      released = true;
      this.count--;
      this.bytes -= size;
    });
    return undefined;
  };
}
