/**
 * Replies as mail clients really write them (quote headers, quoting styles, signatures, several
 * languages), with the new part an agent should read. Used by reading.test.ts.
 */
export interface TextFixture {
  name: string;
  text: string;
  /** extracted_text, exactly. */
  expected: string;
}

export interface HtmlFixture {
  name: string;
  html: string;
  /** Text that must be left in extracted_html. */
  keeps: string[];
  /** Text that must be gone from it. */
  drops: string[];
}

export const TEXT_FIXTURES: TextFixture[] = [
  {
    name: 'Gmail, English, > quotes',
    text: [
      'Thanks, Thursday at 10 works for me.',
      '',
      'On Tue, Mar 5, 2024 at 9:14 AM Support <support@mail.example.com> wrote:',
      '',
      '> Hi Alice,',
      '> could we meet on Thursday?',
      '>',
      '> Best,',
      '> Support',
    ].join('\n'),
    expected: 'Thanks, Thursday at 10 works for me.',
  },
  {
    name: 'Gmail, attribution split over two lines',
    text: [
      'Sounds good.',
      '',
      'On Tue, Mar 5, 2024 at 9:14 AM Very Long Sender Name <very.long.address@mail.example.com>',
      'wrote:',
      '',
      '> Shall we ship on Friday?',
    ].join('\n'),
    expected: 'Sounds good.',
  },
  {
    name: 'Apple Mail, iPhone signature',
    text: [
      'Yes please, go ahead.',
      '',
      'Sent from my iPhone',
      '',
      '> On 5 Mar 2024, at 09:14, Support <support@mail.example.com> wrote:',
      '>',
      '> Shall I book the table?',
    ].join('\n'),
    expected: 'Yes please, go ahead.',
  },
  {
    name: 'Outlook, English, -----Original Message-----',
    text: [
      'Please find the invoice attached.',
      '',
      '-----Original Message-----',
      'From: Support <support@mail.example.com>',
      'Sent: Tuesday, March 5, 2024 9:14 AM',
      'To: Bob <bob@example.org>',
      'Subject: Invoice',
      '',
      'Could you send us the invoice?',
    ].join('\n'),
    expected: 'Please find the invoice attached.',
  },
  {
    name: 'Outlook, header block without an address in brackets',
    text: [
      'Approved.',
      '',
      '________________________________',
      'From: Support Team',
      'Sent: Tuesday, March 5, 2024 9:14 AM',
      'To: Bob',
      'Subject: Budget',
      '',
      'Can you approve the budget?',
    ].join('\n'),
    expected: 'Approved.',
  },
  {
    name: 'Outlook, German: Von / Gesendet',
    text: [
      'Vielen Dank, das passt.',
      '',
      'Von: Support <support@mail.example.com>',
      'Gesendet: Dienstag, 5. März 2024 09:14',
      'An: Jürgen <juergen@example.de>',
      'Betreff: Termin',
      '',
      'Passt Ihnen Donnerstag?',
    ].join('\n'),
    expected: 'Vielen Dank, das passt.',
  },
  {
    name: 'Thunderbird, German: Am … schrieb',
    text: [
      'Das klingt gut.',
      '',
      'Am 05.03.24 um 09:14 schrieb Support:',
      '> Sollen wir am Freitag liefern?',
    ].join('\n'),
    expected: 'Das klingt gut.',
  },
  {
    name: 'Gmail, French: Le … a écrit',
    text: [
      "D'accord, merci !",
      '',
      'Le mar. 5 mars 2024 à 09:14, Support <support@mail.example.com> a écrit :',
      '',
      '> Pouvez-vous confirmer la commande ?',
    ].join('\n'),
    expected: "D'accord, merci !",
  },
  {
    name: 'Gmail, Spanish: El … escribió',
    text: [
      'Perfecto, gracias.',
      '',
      'El mar, 5 mar 2024 a las 9:14, Support (<support@mail.example.com>) escribió:',
      '',
      '> ¿Confirmamos el pedido?',
    ].join('\n'),
    expected: 'Perfecto, gracias.',
  },
  {
    name: 'Gmail, Italian: Il … ha scritto',
    text: [
      'Va bene, grazie.',
      '',
      'Il giorno mar 5 mar 2024 alle ore 09:14 Support <support@mail.example.com> ha scritto:',
      '',
      '> Confermiamo l’ordine?',
    ].join('\n'),
    expected: 'Va bene, grazie.',
  },
  {
    name: 'Gmail, Portuguese: Em … escreveu',
    text: [
      'Pode enviar, obrigado.',
      '',
      'Em ter., 5 de mar. de 2024 às 09:14, Support <support@mail.example.com> escreveu:',
      '',
      '> Podemos enviar o pedido?',
    ].join('\n'),
    expected: 'Pode enviar, obrigado.',
  },
  {
    name: 'Dutch: Op … schreef',
    text: [
      'Prima, dank je.',
      '',
      'Op di 5 mrt 2024 om 09:14 schreef Support <support@mail.example.com>:',
      '',
      '> Zullen we vrijdag leveren?',
    ].join('\n'),
    expected: 'Prima, dank je.',
  },
  {
    name: 'Outlook for Android: "Get Outlook for Android" and a From block',
    text: [
      'On my way.',
      '',
      'Get Outlook for Android<https://aka.ms/ghei36>',
      '________________________________',
      'From: Support <support@mail.example.com>',
      'Sent: Tuesday, March 5, 2024 9:14:00 AM',
      'To: Dana <dana@example.com>',
      'Subject: Visit',
      '',
      'Are you coming today?',
    ].join('\n'),
    expected: 'On my way.',
  },
  {
    name: 'signature after "-- "',
    text: [
      'The fix is deployed.',
      '',
      '-- ',
      'Carol Example',
      'Head of Operations, Example Corp',
      '+1 555 0100',
    ].join('\n'),
    expected: 'The fix is deployed.',
  },
  {
    name: 'an answer written between quoted lines keeps every answer',
    text: [
      'On Tue, Mar 5, 2024 at 9:14 AM Support <support@mail.example.com> wrote:',
      '> Which size do you need?',
      '',
      'Medium.',
      '',
      '> And which colour?',
      '',
      'Blue.',
    ].join('\n'),
    // Each answered part is kept; the library joins them with one newline.
    expected: 'Medium.\nBlue.',
  },
  {
    name: 'a message with no quote is left whole',
    text: 'Hello,\n\nI would like to order two more units.\nIs that possible this week?',
    expected: 'Hello,\n\nI would like to order two more units.\nIs that possible this week?',
  },
  {
    name: 'a forward with nothing written above it is empty',
    text: [
      '-----Original Message-----',
      'From: Dave <dave@example.net>',
      'Sent: Monday, March 4, 2024 5:00 PM',
      'Subject: Report',
      '',
      'Here is the report.',
    ].join('\n'),
    expected: '',
  },
];

export const HTML_FIXTURES: HtmlFixture[] = [
  {
    name: 'Gmail: div.gmail_quote with its attribution',
    html:
      '<div dir="ltr">Thursday works, thanks!</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">' +
      'On Tue, Mar 5, 2024 at 9:14 AM Support &lt;support@mail.example.com&gt; wrote:<br></div>' +
      '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204)">' +
      'Could we meet on Thursday?</blockquote></div>',
    keeps: ['Thursday works, thanks!'],
    drops: ['Could we meet', 'wrote:'],
  },
  {
    name: 'Gmail: signature container',
    html:
      '<div dir="ltr">Deployed.<br clear="all"><br>-- <br><div dir="ltr" class="gmail_signature" ' +
      'data-smartmail="gmail_signature">Carol | Example Corp</div></div>',
    keeps: ['Deployed.'],
    drops: ['Example Corp'],
  },
  {
    name: 'Apple Mail: blockquote type=cite',
    html:
      '<html><body dir="auto">Yes, go ahead.<br><br><div dir="ltr">Sent from my iPhone</div>' +
      '<div dir="ltr"><br><blockquote type="cite">On 5 Mar 2024, at 09:14, Support ' +
      '&lt;support@mail.example.com&gt; wrote:<br><br></blockquote></div>' +
      '<blockquote type="cite"><div dir="ltr">Shall I book the table?</div></blockquote></body></html>',
    keeps: ['Yes, go ahead.'],
    drops: ['Shall I book', 'wrote:'],
  },
  {
    name: 'Thunderbird: moz-cite-prefix and blockquote type=cite',
    html:
      '<p>Das klingt gut.</p><div class="moz-cite-prefix">Am 05.03.24 um 09:14 schrieb Support:<br></div>' +
      '<blockquote type="cite" cite="mid:abc@mail.example.com">Sollen wir am Freitag liefern?</blockquote>' +
      '<div class="moz-signature">-- <br>Jürgen</div>',
    keeps: ['Das klingt gut.'],
    drops: ['schrieb', 'Freitag', 'Jürgen'],
  },
  {
    name: 'Outlook on the web: divRplyFwdMsg and everything after it',
    html:
      '<div style="font-family:Calibri">Approved, thanks.</div><div id="Signature">Bob Example</div>' +
      '<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">' +
      '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri"><b>From:</b> Support &lt;support@mail.example.com&gt;<br>' +
      '<b>Sent:</b> Tuesday, March 5, 2024 9:14 AM<br><b>Subject:</b> Budget</font><div>&nbsp;</div></div>' +
      '<div dir="ltr">Can you approve the budget?</div>',
    keeps: ['Approved, thanks.'],
    drops: ['Bob Example', 'Sent:', 'approve the budget'],
  },
  {
    name: 'Outlook desktop: the bordered From/Sent block cuts the rest, in German too',
    html:
      '<div class="WordSection1"><p class="MsoNormal">Vielen Dank, das passt.<o:p></o:p></p>' +
      '<div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">' +
      '<p class="MsoNormal"><b>Von:</b> Support &lt;support@mail.example.com&gt;<br><b>Gesendet:</b> Dienstag, ' +
      '5. März 2024 09:14</p></div></div><p class="MsoNormal">Passt Ihnen Donnerstag?</p></div>',
    keeps: ['Vielen Dank, das passt.'],
    drops: ['Gesendet', 'Donnerstag'],
  },
  {
    name: 'a plain <blockquote> someone quotes on purpose stays',
    html: '<p>As the contract says:</p><blockquote>Payment within 30 days.</blockquote><p>So we are late.</p>',
    keeps: ['As the contract says:', 'Payment within 30 days.', 'So we are late.'],
    drops: [],
  },
];
