/**
 * Reply and forward prefixes in the languages mail clients commonly localise them into:
 * English (Re, Fw, Fwd), German (AW, WG), Scandinavian (SV, VS, VB), Dutch (Antw, Doorst),
 * French (TR, Réf), Italian (Rif, I), Spanish/Portuguese (RV, Res, Enc), Polish (Odp, PD),
 * Turkish (YNT, İLT), Finnish (VL), Greek (ΑΠ, ΣΧΕΤ, ΠΡΘ), Chinese (回复, 转发), plus counted
 * forms such as `RE[2]:` or `Re(3):`.
 */
const PREFIX =
  /^\s*(?:re|fwd?|aw|wg|sv|vs|vb|antw|doorst|tr|réf|ref|rif|rv|res|enc|odp|pd|ynt|i̇lt|vl|απ|σχετ|πρθ|回复|回覆|转发|轉寄)\s*(?:\[\d+\]|\(\d+\))?\s*[:：]\s*/iu;
/** A mailing-list tag, e.g. `[team]`: lists add them in front of or between reply prefixes. */
const LIST_TAG = /^\s*\[[^\]]{1,40}\]\s*/;
const FWD_SUFFIX = /\s*\((?:fwd|fw)\)\s*$/i;

/**
 * The subject with reply/forward markers and list tags stripped, whitespace collapsed,
 * lower-cased. Tags are stripped wherever they stand in the chain of prefixes
 * (`AW: Re[2]: [shop] Order…` normalises like `Order…`), because a list adds its tag to
 * whatever subject passes through it: with and without the tag it is the same conversation.
 */
export function normalizeSubject(subject: string | null | undefined): string {
  let current = (subject ?? '').normalize('NFC');
  for (let i = 0; i < 40; i++) {
    const marker = LIST_TAG.exec(current) ?? PREFIX.exec(current);
    if (marker) {
      current = current.slice(marker[0].length);
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
