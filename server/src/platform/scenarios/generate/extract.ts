// Turns an uploaded résumé or job description into text: plain text and Markdown as UTF-8, PDF
// through unpdf (PDF.js). Anything else, or a file that cannot be read, is a 400 naming `file`.
import { AppError, invalidParam } from '../../../core/http/errors.ts';

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** Text beyond this is not used: enough for any résumé or job description. */
export const MAX_DOCUMENT_CHARS = 40_000;

export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

const TEXT_EXTENSIONS = /\.(?:txt|text|md|markdown|mdown|mkd)$/i;
const PDF_MAGIC = Buffer.from('%PDF-');

const unsupported = () =>
  new AppError('parameter_invalid', 'Unsupported file: upload plain text (.txt), Markdown (.md) or a PDF.', {
    param: 'file',
  });

export async function extractDocumentText(file: UploadedFile): Promise<string> {
  if (file.data.length === 0) throw invalidParam('file', 'The uploaded file is empty.');
  if (file.data.length > MAX_UPLOAD_BYTES) {
    throw new AppError('payload_too_large', 'The file is larger than 5 MB.', { param: 'file' });
  }
  const text = isPdf(file) ? await pdfText(file.data) : plainText(file);
  const normalized = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (normalized.length < 20) throw invalidParam('file', 'The file contains no readable text.');
  return normalized.slice(0, MAX_DOCUMENT_CHARS);
}

function isPdf(file: UploadedFile): boolean {
  const head = file.data.subarray(0, 1024);
  return head.includes(PDF_MAGIC);
}

function plainText(file: UploadedFile): string {
  const named = TEXT_EXTENSIONS.test(file.filename);
  const typed = /^text\/(?:plain|markdown|x-markdown)\b/i.test(file.mimetype);
  const anonymous =
    !/\.[A-Za-z0-9]{1,8}$/.test(file.filename) &&
    /^(?:application\/octet-stream|text\/)/i.test(file.mimetype);
  if (!named && !typed && !anonymous) throw unsupported();
  if (file.data.includes(0)) throw unsupported();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(file.data);
  } catch {
    throw invalidParam('file', 'The file is not valid UTF-8 text.');
  }
}

async function pdfText(data: Buffer): Promise<string> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  try {
    const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 });
    const { text } = await extractText(pdf, { mergePages: true });
    if (!text.trim()) {
      throw invalidParam('file', 'The PDF has no text layer (a scanned document?): upload a text-based PDF.');
    }
    return text;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('parameter_invalid', 'The PDF could not be read.', { param: 'file', cause: error });
  }
}
