/**
 * E-mail messages: RFC 822 (.eml, parsed by postal-mime) and Outlook (.msg, a CFB file parsed by
 * msgreader) become the same shape: a header block (From, To, Cc, Date, Subject), the body (plain
 * text preferred, else the HTML body converted to markdown) and a list of attachments.
 */
import MsgReader from "@kenjiuno/msgreader";
import PostalMime from "postal-mime";
import { AppError } from "../errors";
import { htmlToMarkdown } from "./html";
import { demoteHeadings, gfmTable, heading, textHeading, joinBlocks, metadataBlock, tidyMarkdown } from "./markdown";
import type { Conversion, ConvertContext, Converter, ConvertInput } from "./types";

/** MailAttachment is one attachment as listed in the output. */
interface MailAttachment {
  name: string;
  type: string;
  /** size: bytes; null when unknown */
  size: number | null;
}

/** Mail is a parsed message, whatever its container format. */
interface Mail {
  from: string;
  to: string;
  cc: string;
  date: string;
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
}

/** CFB_SIGNATURE starts every compound file (the container of .msg). */
const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** formatSize renders a byte count for people. */
function formatSize(bytes: number | null): string {
  if (bytes === null) return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** formatAddress renders `Name <address>`, or the one that is present. */
function formatAddress(name: string | undefined, address: string | undefined): string {
  const n = (name ?? "").trim();
  const a = (address ?? "").trim();
  if (n && a && n !== a) return `${n} <${a}>`;
  return n || a;
}

/** bodyMarkdown prefers the plain text body; an HTML-only body is converted to markdown. */
function bodyMarkdown(mail: Mail, warnings: string[]): string {
  const text = mail.text.replace(/\r\n?/g, "\n").trim();
  if (text) return text;
  if (!mail.html.trim()) return "";
  const converted = htmlToMarkdown(mail.html, { mainContent: false });
  warnings.push(...converted.warnings);
  return converted.markdown.trim();
}

/** mailConversion renders a parsed message; a message with no header, body or attachment is empty. */
function mailConversion(input: ConvertInput, mail: Mail): Conversion {
  const warnings: string[] = [];
  const headers = metadataBlock([
    ["From", mail.from],
    ["To", mail.to],
    ["Cc", mail.cc],
    ["Date", mail.date],
    ["Subject", mail.subject],
  ]);
  const body = bodyMarkdown(mail, warnings);
  const attachments = mail.attachments.length
    ? joinBlocks([heading(2, "Attachments"), gfmTable([["Name", "Type", "Size"], ...mail.attachments.map((a) => [a.name, a.type, formatSize(a.size)])])])
    : "";
  if (!body && !headers && !attachments) throw new AppError("empty_document", `${input.filename} has no headers, body or attachments.`);
  if (!body) warnings.push("the message has no body text");
  const title = mail.subject.trim() || null;
  const markdown = tidyMarkdown(joinBlocks([title ? textHeading(1, title) : "", headers, body, attachments]));
  return { markdown, title, totalPages: 0, method: "text", warnings };
}

type PostalAddress = NonNullable<Awaited<ReturnType<typeof PostalMime.parse>>["to"]>[number];

/** postalAddresses renders postal-mime addresses, groups flattened with their name. */
function postalAddresses(list: PostalAddress[] | PostalAddress | undefined): string {
  const items = Array.isArray(list) ? list : list ? [list] : [];
  return items
    .map((a) => (a.group ? `${a.name}: ${a.group.map((m) => formatAddress(m.name, m.address)).join(", ")}` : formatAddress(a.name, a.address)))
    .filter(Boolean)
    .join(", ");
}

/** attachmentSize counts the bytes of a postal-mime attachment's content. */
function attachmentSize(content: ArrayBuffer | Uint8Array | string): number {
  return typeof content === "string" ? new TextEncoder().encode(content).length : content.byteLength;
}

/** convertEml parses an RFC 822 message with postal-mime. */
export const convertEml: Converter = async (input: ConvertInput, ctx: ConvertContext) => {
  let email: Awaited<ReturnType<typeof PostalMime.parse>>;
  try {
    email = await PostalMime.parse(input.bytes, { attachmentEncoding: "arraybuffer" });
  } catch (cause) {
    throw new AppError("unreadable_document", `${input.filename} is not a readable e-mail message (RFC 822); send the .eml as saved by the mail client.`, { cause });
  }
  ctx.signal.throwIfAborted();
  const known = ["from", "to", "subject", "date", "message-id", "mime-version", "received", "content-type"];
  if (!email.headers.some((h) => known.includes(h.key))) {
    throw new AppError("unreadable_document", `${input.filename} is not an e-mail message: it has none of the headers From, To, Subject, Date or Message-ID.`);
  }
  return mailConversion(input, {
    from: postalAddresses(email.from),
    to: postalAddresses(email.to),
    cc: postalAddresses(email.cc),
    date: email.date ?? "",
    subject: email.subject ?? "",
    text: email.text ?? "",
    html: email.html ?? "",
    attachments: email.attachments.map((a) => ({
      name: a.filename ?? (a.contentId ? `inline ${a.contentId}` : "(unnamed)"),
      type: a.mimeType,
      size: attachmentSize(a.content),
    })),
  });
};

/** MsgRecipient is the part of msgreader's recipient record we use. */
interface MsgRecipient {
  name?: string;
  email?: string;
  smtpAddress?: string;
  recipType?: string;
}

/** msgRecipients lists the recipients of one kind ("to" or "cc"), skipping empty placeholders. */
function msgRecipients(recipients: MsgRecipient[] | undefined, kind: string): string {
  return (recipients ?? [])
    .filter((r) => (r.recipType ?? "to") === kind)
    .map((r) => formatAddress(r.name, r.smtpAddress || r.email))
    .filter(Boolean)
    .join(", ");
}

/** msgHtmlBody decodes the HTML body msgreader gives as a string or bytes. */
function msgHtmlBody(data: { bodyHtml?: string; html?: Uint8Array }, codepage: number | undefined): string {
  if (data.bodyHtml) return data.bodyHtml;
  if (!data.html?.length) return "";
  const label = codepage === 65001 || !codepage ? "utf-8" : `windows-${codepage}`;
  try {
    return new TextDecoder(label).decode(data.html);
  } catch {
    return new TextDecoder("utf-8").decode(data.html);
  }
}

/** convertMsg parses an Outlook .msg (compound file) with msgreader. */
export const convertMsg: Converter = async (input: ConvertInput, ctx: ConvertContext) => {
  if (!CFB_SIGNATURE.every((b, i) => input.bytes[i] === b)) {
    throw new AppError("unreadable_document", `${input.filename} is not an Outlook message (no compound file signature); save the e-mail from Outlook as .msg or send it as .eml.`);
  }
  let data: ReturnType<MsgReader["getFileData"]>;
  let reader: MsgReader;
  try {
    reader = new MsgReader(input.bytes.slice().buffer);
    data = reader.getFileData();
  } catch (cause) {
    throw new AppError("unreadable_document", `${input.filename} is a damaged Outlook message; save it again from Outlook.`, { cause });
  }
  if (data.error) throw new AppError("unreadable_document", `${input.filename} is not a readable Outlook message: ${data.error}.`);
  if (!data.messageClass && !data.subject && !data.body && !data.senderEmail) {
    throw new AppError("unreadable_document", `${input.filename} is a compound file but not an Outlook message (no message class, subject, sender or body); send it in its own format.`);
  }
  ctx.signal.throwIfAborted();
  const extra = data as typeof data & { html?: Uint8Array; internetCodepage?: number };
  const attachments: MailAttachment[] = (data.attachments ?? []).map((a) => ({
    name: a.fileName || a.fileNameShort || a.name || "(unnamed)",
    type: a.attachMimeTag || (a.innerMsgContent ? "message/rfc822" : "application/octet-stream"),
    size: typeof a.contentLength === "number" ? a.contentLength : null,
  }));
  return mailConversion(input, {
    from: formatAddress(data.senderName, data.senderSmtpAddress || data.senderEmail),
    to: msgRecipients(data.recipients, "to"),
    cc: msgRecipients(data.recipients, "cc"),
    date: data.clientSubmitTime || data.messageDeliveryTime || data.creationTime || "",
    subject: data.subject ?? "",
    text: data.body ?? "",
    html: msgHtmlBody(extra, extra.internetCodepage),
    attachments,
  });
};

/** MBOX_SEPARATOR: a "From sender date" line (the date carries a time of day), which starts each message */
const MBOX_SEPARATOR = /^From \S+ [^\r\n]*\d\d:\d\d[^\r\n]*\r?\n/gm;

/** MAX_MBOX_MESSAGES: messages converted from one mailbox; the rest are counted in a warning. */
export const MAX_MBOX_MESSAGES = 500;

/**
 * convertMbox reads a Unix mailbox (mboxo/mboxrd: messages separated by "From " lines, body lines
 * starting with "From " quoted as ">From "): a section per message, each converted as an .eml. A
 * message that cannot be read becomes a warning; a mailbox where none can is an error.
 */
export const convertMbox: Converter = async (input: ConvertInput, ctx: ConvertContext) => {
  const text = new TextDecoder("latin1").decode(input.bytes);
  const starts = [...text.matchAll(MBOX_SEPARATOR)].map((m) => ({ at: m.index!, body: m.index! + m[0].length }));
  if (starts.length === 0) throw new AppError("unreadable_document", `${input.filename} is not a mailbox: it has no "From " line separating messages (mbox format)`);
  const warnings: string[] = [];
  const sections: string[] = [textHeading(1, input.filename)];
  let read = 0;
  for (let i = 0; i < starts.length; i++) {
    ctx.signal.throwIfAborted();
    if (read >= MAX_MBOX_MESSAGES) {
      warnings.push(`only the first ${MAX_MBOX_MESSAGES} messages were converted; ${starts.length - MAX_MBOX_MESSAGES} more were skipped`);
      break;
    }
    const end = i + 1 < starts.length ? starts[i + 1]!.at : input.bytes.length;
    // mboxrd quotes body lines that start with "From " by one ">" more: undo one level
    const raw = input.bytes.subarray(starts[i]!.body, end);
    // (latin1 maps bytes to characters one to one, so the message's own encoding survives the round trip)
    const unquoted = new TextDecoder("latin1").decode(raw).replace(/^>(>*From )/gm, "$1");
    const bytes = Uint8Array.from(unquoted, (c) => c.charCodeAt(0));
    try {
      const mail = await convertEml({ ...input, bytes, filename: `message ${i + 1}`, ext: "eml", contentType: "message/rfc822" }, ctx);
      const body = mail.title ? mail.markdown : joinBlocks([heading(1, `Message ${i + 1}`), mail.markdown]);
      sections.push(demoteHeadings(body, 1));
      warnings.push(...mail.warnings.map((w) => `message ${i + 1}: ${w}`));
      read++;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      warnings.push(`message ${i + 1}: ${error.detail}`);
    }
  }
  if (read === 0) throw new AppError("unreadable_document", `${input.filename} holds no message that could be read: ${warnings.join("; ")}`);
  return { markdown: tidyMarkdown(joinBlocks(sections)), title: input.filename, totalPages: 0, method: "text", warnings };
};

