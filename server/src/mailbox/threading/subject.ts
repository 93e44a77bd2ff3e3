/**
 * Reply and forward prefixes in the languages mail clients commonly localise them into:
 * English (Re, Fw, Fwd), German (AW, WG), Scandinavian (SV, VS, VB), Dutch (Antw, Doorst),
 * French (TR, Réf), Italian (Rif, I), Spanish/Portuguese (RV, Res, Enc), Polish (Odp, PD),
 * Turkish (YNT, İLT), Finnish (VL), Greek (ΑΠ, ΣΧΕΤ, ΠΡΘ), Chinese (回复, 转发), plus counted
 * forms such as `RE[2]:` or `Re(3):`.
 */
const PREFIX =
  /^\s*(?:re|fwd?|aw|wg|sv|vs|vb|antw|doorst|tr|réf|ref|rif|rv|res|enc|odp|pd|ynt|i̇lt|vl|απ|σχετ|πρθ|回复|回覆|转发|轉寄)\s*(?:\[\d+\]|\(\d+\))?\s*[:：]\s*/iu;
/** A mailing-list tag in front of a prefix, e.g. `[team] Re: …`. */
const LIST_TAG = /^\s*\[[^\]]{1,40}\]\s*/;
const FWD_SUFFIX = /\s*\((?:fwd|fw)\)\s*$/i;

/** The subject with reply/forward markers stripped, whitespace collapsed, lower-cased. */
export function normalizeSubject(subject: string | null | undefined): string {
  let current = (subject ?? '').normalize('NFC');
  for (let i = 0; i < 20; i++) {
    const tagged = LIST_TAG.exec(current);
    const afterTag = tagged ? current.slice(tagged[0].length) : current;
    const prefix = PREFIX.exec(afterTag);
    if (prefix) {
      current = afterTag.slice(prefix[0].length);
      continue;
    }
    const suffix = FWD_SUFFIX.exec(current);
    if (suffix) {
      current = current.slice(0, suffix.index);
      continue;
    }
    break;
  }
  return current.replace(/\s+/g, ' ').trim().toLowerCase();
}
