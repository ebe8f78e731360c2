// tickerd Timeline math for JavaScript pixel clients (docs/rendering.md): the frames the daemon's
// `Render` gives — text, sub-cell offset, counters, dots and reveals — computed from the channel's
// published `Timeline` with no D-Bus traffic. Plain ECMAScript with no imports, shared by the
// GNOME Shell extension (legacy `imports` module: top-level `var`s are exported; ES module: the
// build appends an `export` line), the Plasma widget (QML `.import`) and the gjs tests.
/* exported Timeline, fromVariant, ease, cellWidth, clusters, EASINGS, formatNumber */
'use strict';

const MICROS = 1e6;

// Easing curves (docs/rendering.md §9), input clamped to [0, 1].
function bounceOut(t) {
    const n = 7.5625, d = 2.75;
    if (t < 1 / d)
        return n * t * t;
    if (t < 2 / d)
        return n * (t - 1.5 / d) ** 2 + 0.75;
    if (t < 2.5 / d)
        return n * (t - 2.25 / d) ** 2 + 0.9375;
    return n * (t - 2.625 / d) ** 2 + 0.984375;
}

var EASINGS = {
    linear: t => t,
    easeInQuad: t => t * t,
    easeOutQuad: t => 1 - (1 - t) ** 2,
    easeInOutQuad: t => t < 0.5 ? 2 * t * t : 1 - (2 - 2 * t) ** 2 / 2,
    easeInCubic: t => t ** 3,
    easeOutCubic: t => 1 - (1 - t) ** 3,
    easeInOutCubic: t => t < 0.5 ? 4 * t ** 3 : 1 - (2 - 2 * t) ** 3 / 2,
    easeOutExpo: t => (1 - 2 ** (-10 * t)) / (1 - 2 ** -10),
    easeOutBounce: bounceOut,
    easeInBounce: t => 1 - bounceOut(1 - t),
    easeInOutBounce: t => t < 0.5 ? (1 - bounceOut(1 - 2 * t)) / 2 : (1 + bounceOut(2 * t - 1)) / 2,
};

/** easing `name` at `t` (clamped); unknown names are linear. */
function ease(name, t) {
    const f = EASINGS[name] || EASINGS.linear;
    return f(Math.min(1, Math.max(0, t)));
}

// BEGIN WIDTH TABLES (scripts/gen-timeline-width.py copies them from WidthTables.swift; do not edit)
// Inclusive code-point ranges flattened as [lo, hi, lo, hi, ...]: East_Asian_Width W or F, or
// Emoji_Presentation (a base scalar that makes its cluster 2 cells), and General_Category Mn,
// Me, Cf and the conjoining Hangul vowels and finals (scalars that take no cell).
var WIDE_RANGES = [
    0x01100, 0x0115f, 0x0231a, 0x0231b, 0x02329, 0x0232a, 0x023e9, 0x023ec,
    0x023f0, 0x023f0, 0x023f3, 0x023f3, 0x025fd, 0x025fe, 0x02614, 0x02615,
    0x02648, 0x02653, 0x0267f, 0x0267f, 0x02693, 0x02693, 0x026a1, 0x026a1,
    0x026aa, 0x026ab, 0x026bd, 0x026be, 0x026c4, 0x026c5, 0x026ce, 0x026ce,
    0x026d4, 0x026d4, 0x026ea, 0x026ea, 0x026f2, 0x026f3, 0x026f5, 0x026f5,
    0x026fa, 0x026fa, 0x026fd, 0x026fd, 0x02705, 0x02705, 0x0270a, 0x0270b,
    0x02728, 0x02728, 0x0274c, 0x0274c, 0x0274e, 0x0274e, 0x02753, 0x02755,
    0x02757, 0x02757, 0x02795, 0x02797, 0x027b0, 0x027b0, 0x027bf, 0x027bf,
    0x02b1b, 0x02b1c, 0x02b50, 0x02b50, 0x02b55, 0x02b55, 0x02e80, 0x02e99,
    0x02e9b, 0x02ef3, 0x02f00, 0x02fd5, 0x02ff0, 0x02ffb, 0x03000, 0x0303e,
    0x03041, 0x03096, 0x03099, 0x030ff, 0x03105, 0x0312f, 0x03131, 0x0318e,
    0x03190, 0x031e3, 0x031f0, 0x0321e, 0x03220, 0x03247, 0x03250, 0x04dbf,
    0x04e00, 0x0a48c, 0x0a490, 0x0a4c6, 0x0a960, 0x0a97c, 0x0ac00, 0x0d7a3,
    0x0f900, 0x0faff, 0x0fe10, 0x0fe19, 0x0fe30, 0x0fe52, 0x0fe54, 0x0fe66,
    0x0fe68, 0x0fe6b, 0x0ff01, 0x0ff60, 0x0ffe0, 0x0ffe6, 0x16fe0, 0x16fe4,
    0x16ff0, 0x16ff1, 0x17000, 0x187f7, 0x18800, 0x18cd5, 0x18d00, 0x18d08,
    0x1aff0, 0x1aff3, 0x1aff5, 0x1affb, 0x1affd, 0x1affe, 0x1b000, 0x1b122,
    0x1b132, 0x1b132, 0x1b150, 0x1b152, 0x1b155, 0x1b155, 0x1b164, 0x1b167,
    0x1b170, 0x1b2fb, 0x1f004, 0x1f004, 0x1f0cf, 0x1f0cf, 0x1f18e, 0x1f18e,
    0x1f191, 0x1f19a, 0x1f1e6, 0x1f202, 0x1f210, 0x1f23b, 0x1f240, 0x1f248,
    0x1f250, 0x1f251, 0x1f260, 0x1f265, 0x1f300, 0x1f320, 0x1f32d, 0x1f335,
    0x1f337, 0x1f37c, 0x1f37e, 0x1f393, 0x1f3a0, 0x1f3ca, 0x1f3cf, 0x1f3d3,
    0x1f3e0, 0x1f3f0, 0x1f3f4, 0x1f3f4, 0x1f3f8, 0x1f43e, 0x1f440, 0x1f440,
    0x1f442, 0x1f4fc, 0x1f4ff, 0x1f53d, 0x1f54b, 0x1f54e, 0x1f550, 0x1f567,
    0x1f57a, 0x1f57a, 0x1f595, 0x1f596, 0x1f5a4, 0x1f5a4, 0x1f5fb, 0x1f64f,
    0x1f680, 0x1f6c5, 0x1f6cc, 0x1f6cc, 0x1f6d0, 0x1f6d2, 0x1f6d5, 0x1f6d7,
    0x1f6dc, 0x1f6df, 0x1f6eb, 0x1f6ec, 0x1f6f4, 0x1f6fc, 0x1f7e0, 0x1f7eb,
    0x1f7f0, 0x1f7f0, 0x1f90c, 0x1f93a, 0x1f93c, 0x1f945, 0x1f947, 0x1f9ff,
    0x1fa70, 0x1fa7c, 0x1fa80, 0x1fa88, 0x1fa90, 0x1fabd, 0x1fabf, 0x1fac5,
    0x1face, 0x1fadb, 0x1fae0, 0x1fae8, 0x1faf0, 0x1faf8, 0x20000, 0x2fffd,
    0x30000, 0x3fffd,
];
var ZERO_WIDTH_RANGES = [
    0x000ad, 0x000ad, 0x00300, 0x0036f, 0x00483, 0x00489, 0x00591, 0x005bd,
    0x005bf, 0x005bf, 0x005c1, 0x005c2, 0x005c4, 0x005c5, 0x005c7, 0x005c7,
    0x00600, 0x00605, 0x00610, 0x0061a, 0x0061c, 0x0061c, 0x0064b, 0x0065f,
    0x00670, 0x00670, 0x006d6, 0x006dd, 0x006df, 0x006e4, 0x006e7, 0x006e8,
    0x006ea, 0x006ed, 0x0070f, 0x0070f, 0x00711, 0x00711, 0x00730, 0x0074a,
    0x007a6, 0x007b0, 0x007eb, 0x007f3, 0x007fd, 0x007fd, 0x00816, 0x00819,
    0x0081b, 0x00823, 0x00825, 0x00827, 0x00829, 0x0082d, 0x00859, 0x0085b,
    0x00890, 0x00891, 0x00898, 0x0089f, 0x008ca, 0x00902, 0x0093a, 0x0093a,
    0x0093c, 0x0093c, 0x00941, 0x00948, 0x0094d, 0x0094d, 0x00951, 0x00957,
    0x00962, 0x00963, 0x00981, 0x00981, 0x009bc, 0x009bc, 0x009c1, 0x009c4,
    0x009cd, 0x009cd, 0x009e2, 0x009e3, 0x009fe, 0x009fe, 0x00a01, 0x00a02,
    0x00a3c, 0x00a3c, 0x00a41, 0x00a42, 0x00a47, 0x00a48, 0x00a4b, 0x00a4d,
    0x00a51, 0x00a51, 0x00a70, 0x00a71, 0x00a75, 0x00a75, 0x00a81, 0x00a82,
    0x00abc, 0x00abc, 0x00ac1, 0x00ac5, 0x00ac7, 0x00ac8, 0x00acd, 0x00acd,
    0x00ae2, 0x00ae3, 0x00afa, 0x00aff, 0x00b01, 0x00b01, 0x00b3c, 0x00b3c,
    0x00b3f, 0x00b3f, 0x00b41, 0x00b44, 0x00b4d, 0x00b4d, 0x00b55, 0x00b56,
    0x00b62, 0x00b63, 0x00b82, 0x00b82, 0x00bc0, 0x00bc0, 0x00bcd, 0x00bcd,
    0x00c00, 0x00c00, 0x00c04, 0x00c04, 0x00c3c, 0x00c3c, 0x00c3e, 0x00c40,
    0x00c46, 0x00c48, 0x00c4a, 0x00c4d, 0x00c55, 0x00c56, 0x00c62, 0x00c63,
    0x00c81, 0x00c81, 0x00cbc, 0x00cbc, 0x00cbf, 0x00cbf, 0x00cc6, 0x00cc6,
    0x00ccc, 0x00ccd, 0x00ce2, 0x00ce3, 0x00d00, 0x00d01, 0x00d3b, 0x00d3c,
    0x00d41, 0x00d44, 0x00d4d, 0x00d4d, 0x00d62, 0x00d63, 0x00d81, 0x00d81,
    0x00dca, 0x00dca, 0x00dd2, 0x00dd4, 0x00dd6, 0x00dd6, 0x00e31, 0x00e31,
    0x00e34, 0x00e3a, 0x00e47, 0x00e4e, 0x00eb1, 0x00eb1, 0x00eb4, 0x00ebc,
    0x00ec8, 0x00ece, 0x00f18, 0x00f19, 0x00f35, 0x00f35, 0x00f37, 0x00f37,
    0x00f39, 0x00f39, 0x00f71, 0x00f7e, 0x00f80, 0x00f84, 0x00f86, 0x00f87,
    0x00f8d, 0x00f97, 0x00f99, 0x00fbc, 0x00fc6, 0x00fc6, 0x0102d, 0x01030,
    0x01032, 0x01037, 0x01039, 0x0103a, 0x0103d, 0x0103e, 0x01058, 0x01059,
    0x0105e, 0x01060, 0x01071, 0x01074, 0x01082, 0x01082, 0x01085, 0x01086,
    0x0108d, 0x0108d, 0x0109d, 0x0109d, 0x01160, 0x011ff, 0x0135d, 0x0135f,
    0x01712, 0x01714, 0x01732, 0x01733, 0x01752, 0x01753, 0x01772, 0x01773,
    0x017b4, 0x017b5, 0x017b7, 0x017bd, 0x017c6, 0x017c6, 0x017c9, 0x017d3,
    0x017dd, 0x017dd, 0x0180b, 0x0180f, 0x01885, 0x01886, 0x018a9, 0x018a9,
    0x01920, 0x01922, 0x01927, 0x01928, 0x01932, 0x01932, 0x01939, 0x0193b,
    0x01a17, 0x01a18, 0x01a1b, 0x01a1b, 0x01a56, 0x01a56, 0x01a58, 0x01a5e,
    0x01a60, 0x01a60, 0x01a62, 0x01a62, 0x01a65, 0x01a6c, 0x01a73, 0x01a7c,
    0x01a7f, 0x01a7f, 0x01ab0, 0x01ace, 0x01b00, 0x01b03, 0x01b34, 0x01b34,
    0x01b36, 0x01b3a, 0x01b3c, 0x01b3c, 0x01b42, 0x01b42, 0x01b6b, 0x01b73,
    0x01b80, 0x01b81, 0x01ba2, 0x01ba5, 0x01ba8, 0x01ba9, 0x01bab, 0x01bad,
    0x01be6, 0x01be6, 0x01be8, 0x01be9, 0x01bed, 0x01bed, 0x01bef, 0x01bf1,
    0x01c2c, 0x01c33, 0x01c36, 0x01c37, 0x01cd0, 0x01cd2, 0x01cd4, 0x01ce0,
    0x01ce2, 0x01ce8, 0x01ced, 0x01ced, 0x01cf4, 0x01cf4, 0x01cf8, 0x01cf9,
    0x01dc0, 0x01dff, 0x0200b, 0x0200f, 0x0202a, 0x0202e, 0x02060, 0x02064,
    0x02066, 0x0206f, 0x020d0, 0x020f0, 0x02cef, 0x02cf1, 0x02d7f, 0x02d7f,
    0x02de0, 0x02dff, 0x0302a, 0x0302d, 0x03099, 0x0309a, 0x0a66f, 0x0a672,
    0x0a674, 0x0a67d, 0x0a69e, 0x0a69f, 0x0a6f0, 0x0a6f1, 0x0a802, 0x0a802,
    0x0a806, 0x0a806, 0x0a80b, 0x0a80b, 0x0a825, 0x0a826, 0x0a82c, 0x0a82c,
    0x0a8c4, 0x0a8c5, 0x0a8e0, 0x0a8f1, 0x0a8ff, 0x0a8ff, 0x0a926, 0x0a92d,
    0x0a947, 0x0a951, 0x0a980, 0x0a982, 0x0a9b3, 0x0a9b3, 0x0a9b6, 0x0a9b9,
    0x0a9bc, 0x0a9bd, 0x0a9e5, 0x0a9e5, 0x0aa29, 0x0aa2e, 0x0aa31, 0x0aa32,
    0x0aa35, 0x0aa36, 0x0aa43, 0x0aa43, 0x0aa4c, 0x0aa4c, 0x0aa7c, 0x0aa7c,
    0x0aab0, 0x0aab0, 0x0aab2, 0x0aab4, 0x0aab7, 0x0aab8, 0x0aabe, 0x0aabf,
    0x0aac1, 0x0aac1, 0x0aaec, 0x0aaed, 0x0aaf6, 0x0aaf6, 0x0abe5, 0x0abe5,
    0x0abe8, 0x0abe8, 0x0abed, 0x0abed, 0x0d7b0, 0x0d7ff, 0x0fb1e, 0x0fb1e,
    0x0fe00, 0x0fe0f, 0x0fe20, 0x0fe2f, 0x0feff, 0x0feff, 0x0fff9, 0x0fffb,
    0x101fd, 0x101fd, 0x102e0, 0x102e0, 0x10376, 0x1037a, 0x10a01, 0x10a03,
    0x10a05, 0x10a06, 0x10a0c, 0x10a0f, 0x10a38, 0x10a3a, 0x10a3f, 0x10a3f,
    0x10ae5, 0x10ae6, 0x10d24, 0x10d27, 0x10eab, 0x10eac, 0x10efd, 0x10eff,
    0x10f46, 0x10f50, 0x10f82, 0x10f85, 0x11001, 0x11001, 0x11038, 0x11046,
    0x11070, 0x11070, 0x11073, 0x11074, 0x1107f, 0x11081, 0x110b3, 0x110b6,
    0x110b9, 0x110ba, 0x110bd, 0x110bd, 0x110c2, 0x110c2, 0x110cd, 0x110cd,
    0x11100, 0x11102, 0x11127, 0x1112b, 0x1112d, 0x11134, 0x11173, 0x11173,
    0x11180, 0x11181, 0x111b6, 0x111be, 0x111c9, 0x111cc, 0x111cf, 0x111cf,
    0x1122f, 0x11231, 0x11234, 0x11234, 0x11236, 0x11237, 0x1123e, 0x1123e,
    0x11241, 0x11241, 0x112df, 0x112df, 0x112e3, 0x112ea, 0x11300, 0x11301,
    0x1133b, 0x1133c, 0x11340, 0x11340, 0x11366, 0x1136c, 0x11370, 0x11374,
    0x11438, 0x1143f, 0x11442, 0x11444, 0x11446, 0x11446, 0x1145e, 0x1145e,
    0x114b3, 0x114b8, 0x114ba, 0x114ba, 0x114bf, 0x114c0, 0x114c2, 0x114c3,
    0x115b2, 0x115b5, 0x115bc, 0x115bd, 0x115bf, 0x115c0, 0x115dc, 0x115dd,
    0x11633, 0x1163a, 0x1163d, 0x1163d, 0x1163f, 0x11640, 0x116ab, 0x116ab,
    0x116ad, 0x116ad, 0x116b0, 0x116b5, 0x116b7, 0x116b7, 0x1171d, 0x1171f,
    0x11722, 0x11725, 0x11727, 0x1172b, 0x1182f, 0x11837, 0x11839, 0x1183a,
    0x1193b, 0x1193c, 0x1193e, 0x1193e, 0x11943, 0x11943, 0x119d4, 0x119d7,
    0x119da, 0x119db, 0x119e0, 0x119e0, 0x11a01, 0x11a0a, 0x11a33, 0x11a38,
    0x11a3b, 0x11a3e, 0x11a47, 0x11a47, 0x11a51, 0x11a56, 0x11a59, 0x11a5b,
    0x11a8a, 0x11a96, 0x11a98, 0x11a99, 0x11c30, 0x11c36, 0x11c38, 0x11c3d,
    0x11c3f, 0x11c3f, 0x11c92, 0x11ca7, 0x11caa, 0x11cb0, 0x11cb2, 0x11cb3,
    0x11cb5, 0x11cb6, 0x11d31, 0x11d36, 0x11d3a, 0x11d3a, 0x11d3c, 0x11d3d,
    0x11d3f, 0x11d45, 0x11d47, 0x11d47, 0x11d90, 0x11d91, 0x11d95, 0x11d95,
    0x11d97, 0x11d97, 0x11ef3, 0x11ef4, 0x11f00, 0x11f01, 0x11f36, 0x11f3a,
    0x11f40, 0x11f40, 0x11f42, 0x11f42, 0x13430, 0x13440, 0x13447, 0x13455,
    0x16af0, 0x16af4, 0x16b30, 0x16b36, 0x16f4f, 0x16f4f, 0x16f8f, 0x16f92,
    0x16fe4, 0x16fe4, 0x1bc9d, 0x1bc9e, 0x1bca0, 0x1bca3, 0x1cf00, 0x1cf2d,
    0x1cf30, 0x1cf46, 0x1d167, 0x1d169, 0x1d173, 0x1d182, 0x1d185, 0x1d18b,
    0x1d1aa, 0x1d1ad, 0x1d242, 0x1d244, 0x1da00, 0x1da36, 0x1da3b, 0x1da6c,
    0x1da75, 0x1da75, 0x1da84, 0x1da84, 0x1da9b, 0x1da9f, 0x1daa1, 0x1daaf,
    0x1e000, 0x1e006, 0x1e008, 0x1e018, 0x1e01b, 0x1e021, 0x1e023, 0x1e024,
    0x1e026, 0x1e02a, 0x1e08f, 0x1e08f, 0x1e130, 0x1e136, 0x1e2ae, 0x1e2ae,
    0x1e2ec, 0x1e2ef, 0x1e4ec, 0x1e4ef, 0x1e8d0, 0x1e8d6, 0x1e944, 0x1e94a,
    0xe0001, 0xe0001, 0xe0020, 0xe007f, 0xe0100, 0xe01ef,
];
// END WIDTH TABLES

/** Whether `c` is in `table` (flattened inclusive ranges, sorted). */
function inRanges(table, c) {
    let low = 0;
    let high = table.length / 2;
    while (low < high) {
        const middle = (low + high) >> 1;
        if (table[2 * middle + 1] < c)
            low = middle + 1;
        else
            high = middle;
    }
    return low < table.length / 2 && table[2 * low] <= c;
}

/** Whether code point `c` takes no cell (the daemon's zero-width table). */
function isZeroWidth(c) {
    return c >= 0xad && inRanges(ZERO_WIDTH_RANGES, c);
}

/**
 * The cells of one cluster, by the daemon's rule (DESIGN §4 "Cells"): 0 when every code point
 * takes no cell; 2 when its first other code point is East Asian wide or full-width or has
 * Emoji_Presentation, when it holds U+FE0F after one, or two regional indicators; else 1.
 */
function clusterCells(cluster) {
    // One UTF-16 unit below U+00AD (Latin letters, digits, punctuation): one cell.
    if (cluster.length === 1 && cluster.charCodeAt(0) < 0xad)
        return 1;
    let base = null;
    let indicators = 0;
    for (const ch of cluster) {
        const c = ch.codePointAt(0);
        if (c === 0xfe0f)
            return base === null ? 0 : 2;
        if (c >= 0x1f1e6 && c <= 0x1f1ff)
            indicators++;
        if (base === null && !isZeroWidth(c))
            base = c;
    }
    if (base === null)
        return 0;
    return indicators >= 2 || (base >= 0x1100 && inRanges(WIDE_RANGES, base)) ? 2 : 1;
}

/**
 * Terminal cells of `text`: the cells of each of its clusters (`clusters`), counted as the
 * daemon counts them (the same tables). Exact wherever `clusters` splits as the daemon does.
 */
function cellWidth(text) {
    if (/^[\x20-\x7e]*$/.test(text))
        return text.length;
    const parts = clusters(text);
    // A local name: gjs's legacy module scope looks a global name up again at every call.
    const widthOf = clusterCells;
    let cells = 0;
    for (let i = 0; i < parts.length; i++)
        cells += widthOf(parts[i]);
    return cells;
}

/**
 * The extended grapheme clusters of `text`, approximately (this gjs has no Intl.Segmenter): a
 * code point joins the previous cluster when it takes no cell (combining marks, format
 * characters), is a variation selector, an emoji modifier, a zero-width joiner or follows one,
 * or the second of a regional-indicator pair. Spacing marks (Indic vowel signs) start a cluster
 * here, where the daemon joins them to the letter before.
 */
function clusters(text) {
    const result = [];
    const n = text.length;
    let start = 0;
    let joinNext = false;
    let indicators = 0;
    // By UTF-16 unit, a surrogate pair read as one code point (a lone surrogate as itself), and
    // each cluster sliced from `text` once its end is known.
    for (let i = 0; i < n;) {
        let c = text.charCodeAt(i);
        let size = 1;
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
            const low = text.charCodeAt(i + 1);
            if (low >= 0xdc00 && low <= 0xdfff) {
                c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
                size = 2;
            }
        }
        const indicator = c >= 0x1f1e6 && c <= 0x1f1ff;
        // Nothing below U+00AD extends a cluster (the tests below all start above it).
        const extends_ = c >= 0xad && ((c >= 0xfe00 && c <= 0xfe0f) || c === 0x200d ||
            (c >= 0x1f3fb && c <= 0x1f3ff) || (c >= 0x20d0 && c <= 0x20ff) || isZeroWidth(c));
        if (i > 0 && !(extends_ || joinNext || (indicator && indicators % 2 === 1))) {
            result.push(text.slice(start, i));
            start = i;
        }
        indicators = indicator ? indicators + 1 : 0;
        joinNext = c === 0x200d;
        i += size;
    }
    if (n > 0)
        result.push(text.slice(start));
    return result;
}

/**
 * The message spans (`m` lines) of a published layout, `[{key, first, end}]` in clusters, with
 * its counter fields (`f` lines) as `spans.fields`, `[{name, first, end}]` (docs/rendering.md §12).
 */
function parseLayout(text) {
    const spans = [];
    spans.fields = [];
    for (const line of (text ?? '').split('\n')) {
        const tokens = line.split(' ');
        if (tokens[0] === 'm' && tokens.length === 7)
            spans.push({key: unescapeToken(tokens[1]), first: Number(tokens[2]), end: Number(tokens[3])});
        else if (tokens[0] === 'f' && tokens.length === 4)
            spans.fields.push({name: unescapeToken(tokens[1]), first: Number(tokens[2]), end: Number(tokens[3])});
    }
    return spans;
}

/**
 * For each of `count` clusters, the index in `list` of the first entry holding it, or -1: built
 * once per tape, so writing a cluster finds its message and its counter field at once (§11.6).
 */
function entryOfCluster(list, count) {
    const entries = new Int32Array(count).fill(-1);
    for (let i = list.length - 1; i >= 0; i--) {
        const end = Math.min(list[i].end, count);
        for (let cluster = Math.max(0, list[i].first); cluster < end; cluster++)
            entries[cluster] = i;
    }
    return entries;
}

/** A counter (docs/rendering.md §11.2): a count from `from` to `to` over `duration` µs. */
class Counter {
    constructor(from, to, start, duration, easing, decimals, grouping, prefix, suffix) {
        Object.assign(this, {from, to, start, duration, easing, decimals, grouping, prefix, suffix});
    }

    get endInstant() {
        return this.start + this.duration;
    }

    /** The value at `t` (exactly `to` from the end on, clamped between `from` and `to`). */
    value(t) {
        if (t >= this.endInstant)
            return this.to;
        if (t <= this.start)
            return this.from;
        const v = this.from + (this.to - this.from) * ease(this.easing, (t - this.start) / this.duration);
        return Math.min(Math.max(v, Math.min(this.from, this.to)), Math.max(this.from, this.to));
    }

    /** Whether the written number may still change after `t`. */
    isCounting(t) {
        return t < this.endInstant && this.from !== this.to;
    }

    /** The number written at `t`, without prefix and suffix. */
    number(t) {
        return formatNumber(this.value(t), this.decimals, this.grouping);
    }

    /**
     * The first instant after `t` at which the written number changes, or null. Exact for the
     * monotonic curves (bisection); the bounce curves answer `t + 1` (never late, may be early).
     */
    nextChange(t) {
        if (!this.isCounting(t))
            return null;
        if (this.easing.includes('Bounce'))
            return t + 1;
        const written = this.number(t);
        let a = Math.max(t, this.start) + 1;
        let b = this.endInstant;
        if (this.number(a) !== written)
            return a;
        if (this.number(b) === written)
            return null;
        while (b - a > 1) {
            const middle = Math.floor((a + b) / 2);
            if (this.number(middle) !== written)
                b = middle;
            else
                a = middle;
        }
        return b;
    }
}

/**
 * `value` written as the daemon writes it (§11.2): rounded half away from zero to `decimals`,
 * ASCII digits grouped by three with `,` when `grouping`, `-` only when the rounded key is < 0.
 */
function formatNumber(value, decimals, grouping) {
    const rounded = Math.round(Math.abs(value) * 10 ** decimals);
    if (!Number.isFinite(rounded) || rounded >= 9.0e18)
        return formatNumber(0, decimals, grouping);
    // toFixed(0) writes an integral double exactly (no BigInt: QML's engine has none).
    let digits = rounded.toFixed(0);
    if (digits.length <= decimals)
        digits = '0'.repeat(decimals + 1 - digits.length) + digits;
    const whole = digits.slice(0, digits.length - decimals);
    let grouped = whole;
    if (grouping) {
        grouped = '';
        for (let i = 0; i < whole.length; i++) {
            if (i > 0 && (whole.length - i) % 3 === 0)
                grouped += ',';
            grouped += whole[i];
        }
    }
    const negative = value < 0 && rounded > 0;
    return (negative ? '-' : '') + grouped + (decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : '');
}

/** Jumping dots (docs/rendering.md §11.3), from `start`, stopping gracefully at `stop` (or null). */
class DotsEffect {
    constructor(start, stop) {
        this.start = start;
        this.stop = stop;
    }

    get lastWave() {
        if (this.stop === null)
            return null;
        return this.stop < this.start ? -1 : Math.floor((this.stop - this.start) / DotsEffect.PERIOD);
    }

    /** µs into the jump of `dot` at `t`, or null when it rests. */
    timeIntoJump(dot, t) {
        const sinceFirst = t - this.start - dot * DotsEffect.STAGGER;
        if (sinceFirst < 0)
            return null;
        const wave = Math.floor(sinceFirst / DotsEffect.PERIOD);
        const last = this.lastWave;
        if (last !== null && wave > last)
            return null;
        const tau = sinceFirst - wave * DotsEffect.PERIOD;
        return tau < DotsEffect.UP ? tau : null;
    }

    /** The heights of the three dots at `t`, in quarters of the line (§11.3). */
    heights(t) {
        return [0, 1, 2].map(dot => {
            const tau = this.timeIntoJump(dot, t);
            if (tau === null)
                return 0;
            const u = tau / DotsEffect.UP;
            return 4 * u * (1 - u);
        });
    }

    /** Whether `dot` shows raised (`˙`) in a text frame at `t`. */
    isRaised(dot, t) {
        const tau = this.timeIntoJump(dot, t);
        return tau !== null && 8 * tau * (DotsEffect.UP - tau) > DotsEffect.UP * DotsEffect.UP;
    }

    /** Whether a dot is in the air at `t`. */
    isJumping(t) {
        return [0, 1, 2].some(dot => this.timeIntoJump(dot, t) !== null);
    }

    /** The next instant after `t` at which a dot is raised or lowered in a text frame, or null. */
    nextChange(t) {
        const span = DotsEffect.raisedSpan();
        let best = null;
        const last = this.lastWave;
        for (let dot = 0; dot < 3; dot++) {
            const first = this.start + dot * DotsEffect.STAGGER;
            const wave = Math.max(0, Math.floor((t - first) / DotsEffect.PERIOD));
            for (let k = wave; k <= wave + 1 && (last === null || k <= last); k++) {
                for (const offset of [span.first, span.last + 1]) {
                    const at = first + k * DotsEffect.PERIOD + offset;
                    if (at > t && (best === null || at < best))
                        best = at;
                }
            }
        }
        return best;
    }

    /** µs into a jump from which a dot shows raised, and the last such µs (§11.3, in integers). */
    static raisedSpan() {
        if (DotsEffect._span)
            return DotsEffect._span;
        const up = DotsEffect.UP;
        const raised = tau => tau >= 0 && tau < up && 8 * tau * (up - tau) > up * up;
        let first = Math.floor(up * (1 - Math.sqrt(0.5)) / 2);
        while (first > 0 && raised(first - 1))
            first--;
        while (!raised(first))
            first++;
        let last = Math.floor(up * (1 + Math.sqrt(0.5)) / 2);
        while (!raised(last))
            last--;
        while (raised(last + 1))
            last++;
        DotsEffect._span = {first, last};
        return DotsEffect._span;
    }
}
DotsEffect.PERIOD = 1150000;
DotsEffect.STAGGER = 150000;
DotsEffect.UP = 322000;
DotsEffect.RAISED = '\u02D9';

/**
 * The counters and message effects of a published `effects` string (§12):
 * `{counters: Map(name → Counter), dots: Map(key → DotsEffect)}`; reveals are parseReveals's.
 */
function parseEffects(text) {
    const counters = new Map();
    const dots = new Map();
    for (const line of (text ?? '').split('\n')) {
        const tokens = line.split(' ');
        if (tokens[0] === 'c' && tokens.length === 11) {
            counters.set(unescapeToken(tokens[1]), new Counter(Number(tokens[2]), Number(tokens[3]),
                Number(tokens[4]), Number(tokens[5]), tokens[6], Number(tokens[7]), tokens[8] === '1',
                unescapeToken(tokens[9]), unescapeToken(tokens[10])));
        } else if (tokens[0] === 'd' && tokens.length === 4) {
            dots.set(unescapeToken(tokens[1]), new DotsEffect(Number(tokens[2]),
                tokens[3] === '-' ? null : Number(tokens[3])));
        }
    }
    return {counters, dots};
}

/**
 * A tape's clusters and cells, for frames: `clusters`, `widths`, `starts` (cell of each cluster,
 * with the tape width at the end), `contentCount` (clusters that start before the gap), `layout`.
 */
class TapeCells {
    constructor(tape, gap, layout) {
        this.clusters = clusters(tape);
        this.widths = this.clusters.map(clusterCells);
        this.starts = [];
        let cell = 0;
        let units = 0;
        const contentEnd = gap && tape.endsWith(gap) ? tape.length - gap.length : tape.length;
        this.contentCount = 0;
        for (let i = 0; i < this.clusters.length; i++) {
            this.starts.push(cell);
            cell += this.widths[i];
            if (units < contentEnd)
                this.contentCount = i + 1;
            units += this.clusters[i].length;
        }
        this.starts.push(cell);
        this.width = cell;
        this.contentWidth = this.starts[this.contentCount];
        this.layout = layout ?? null;
        this._layoutIndex = null;
    }

    /**
     * For each cluster, the index of its message (`spans`) and of its counter field (`fields`) in
     * the layout, or -1; built when a frame with effects first asks (plain tapes never build it).
     */
    layoutIndex() {
        if (this._layoutIndex === null) {
            this._layoutIndex = {spans: entryOfCluster(this.layout, this.clusters.length),
                fields: entryOfCluster(this.layout.fields, this.clusters.length)};
        }
        return this._layoutIndex;
    }

    /** The first cluster whose start is ≥ `cell` (the cluster count when none is). */
    firstAtOrAfter(cell) {
        let low = 0;
        let high = this.clusters.length;
        while (low < high) {
            const middle = (low + high) >> 1;
            if (this.starts[middle] < cell)
                low = middle + 1;
            else
                high = middle;
        }
        return low;
    }

    /** The last index ≥ `from` (≤ cluster count) whose start is ≤ `cell`. */
    lastBoundary(cell, from) {
        let i = from;
        while (i < this.clusters.length && this.starts[i + 1] <= cell)
            i++;
        return i;
    }

    /** Stream cells [from, to) of this tape repeated, each cluster through `write(index)` (§3). */
    cells(from, to, write) {
        let out = '';
        if (from >= to)
            return out;
        const count = this.clusters.length;
        if (this.width <= 0)
            return ' '.repeat(to - from);
        const rem = ((from % this.width) + this.width) % this.width;
        let base = from - rem;
        let x = from;
        let index = this.firstAtOrAfter(rem);
        if (rem > 0) {
            while (index < count && this.starts[index] === rem && this.widths[index] === 0)
                index++;
            if (index > 0 && this.starts[index - 1] + this.widths[index - 1] > rem) {
                const end = Math.min(base + this.starts[index], to);
                out += ' '.repeat(end - x);
                x = end;
            }
        }
        while (x < to) {
            if (index === count) {
                index = 0;
                base += this.width;
                continue;
            }
            const runStart = index;
            index = this.lastBoundary(to - base, index);
            x = base + this.starts[index];
            for (let i = runStart; i < index; i++)
                out += write(i);
            if (x < to && index < count) {
                out += ' '.repeat(to - x);
                x = to;
                index++;
            }
        }
        while (index < count && base + this.starts[index] === to && this.widths[index] === 0 && this.starts[index] > 0)
            out += write(index++);
        return out;
    }

    /** The content clusters (still text) through `write`. */
    content(write) {
        let out = '';
        for (let i = 0; i < this.contentCount; i++)
            out += write(i);
        return out;
    }

    /** The pages of this tape's content for `columns` cells (docs/rendering.md §5). */
    pages(columns) {
        if (this._pages && this._pagesColumns === columns)
            return this._pages;
        const list = [];  // not `pages`: QML 5.15 refuses a local named like its method
        let page = {pieces: [], cells: 0, words: 0};
        const place = (first, end, cells) => {
            const needed = page.words === 0 ? cells : page.cells + 1 + cells;
            if (page.words > 0 && needed > columns) {
                list.push(page);
                page = {pieces: [], cells: 0, words: 0};
            }
            page.cells = page.words === 0 ? cells : page.cells + 1 + cells;
            page.pieces.push([first, end]);
            page.words++;
        };
        let index = 0;
        const end = this.contentCount;
        while (index < end) {
            if (this.clusters[index] === ' ') {
                index++;
                continue;
            }
            let pieceStart = index;
            let pieceCells = 0;
            while (index < end && this.clusters[index] !== ' ') {
                const w = this.widths[index];
                if (pieceCells + w > columns && index > pieceStart) {
                    place(pieceStart, index, Math.min(pieceCells, columns));
                    pieceStart = index;
                    pieceCells = 0;
                }
                pieceCells += w;
                index++;
            }
            place(pieceStart, index, Math.min(pieceCells, columns));
        }
        if (page.words > 0 || list.length === 0)
            list.push(page);
        let total = 0;
        for (const p of list) {
            total += Math.max(2 * MICROS, p.words * 300000);
            p.end = total;
        }
        this._pages = list;
        this._pagesColumns = columns;
        return list;
    }

    /** One page through `write`, `{text, cells}`. */
    page(entry, columns, write) {
        let out = '';
        let cells = 0;
        entry.pieces.forEach(([first, end], number) => {
            if (number > 0) {
                out += ' ';
                cells++;
            }
            const pieceCells = this.starts[end] - this.starts[first];
            if (pieceCells > columns - cells) {
                out += ' '.repeat(columns - cells);
                cells = columns;
            } else {
                for (let i = first; i < end; i++)
                    out += write(i);
                cells += pieceCells;
            }
        });
        return {text: out, cells};
    }
}

/**
 * Writes clusters with the effects at real instant `t` for a viewer of `columns` cells (§11):
 * hidden (not yet revealed) clusters as spaces, counter fields as their right-aligned numbers,
 * raised dots as `˙`. Notes what it showed (`shownFields`, `shownDots`, `shownReveals`).
 */
class EffectWriter {
    constructor(timeline, tape, t, columns) {
        this.tape = tape;
        this.t = t;
        this.timeline = timeline;
        this.columns = columns;
        this.shownFields = new Set();
        this.shownDots = new Map();
        this.shownReveals = new Map();
        this.firstDots = null;
        this.firstReveal = null;
        const layout = tape.layout;
        this.plain = !layout || (layout.fields.length === 0 && timeline.reveals.size === 0 &&
            timeline.effects.dots.size === 0);
        this.index = this.plain ? null : tape.layoutIndex();
    }

    write(index) {
        const tape = this.tape;
        if (this.plain)
            return tape.clusters[index];
        const layout = tape.layout;
        const span = layout[this.index.spans[index]];
        if (span) {
            const reveal = this.timeline.revealFor(span.key, this.columns);
            if (reveal) {
                if (!this.shownReveals.has(span.key))
                    this.shownReveals.set(span.key, {reveal, count: span.end - span.first});
                if (this.firstReveal === null)
                    this.firstReveal = reveal;
                const n = span.end - span.first;
                const elapsed = Math.min(Math.max(0, this.t - reveal.start), reveal.duration);
                if (index >= span.first + Math.floor(elapsed * n / reveal.duration))
                    return ' '.repeat(tape.widths[index]);
            }
        }
        const field = layout.fields[this.index.fields[index]];
        if (field) {
            this.shownFields.add(field.name);
            const width = field.end - field.first;
            const counter = this.timeline.effects.counters.get(field.name);
            let shown;
            if (!counter) {
                shown = ' '.repeat(width);
            } else {
                const number = counter.number(this.t);
                shown = number.length > width ? '#'.repeat(width) : ' '.repeat(width - number.length) + number;
            }
            if (index - field.first < shown.length && tape.widths[index] === 1)
                return shown[index - field.first];
        }
        if (span) {
            const dots = this.timeline.effects.dots.get(span.key);
            if (dots) {
                if (!this.shownDots.has(span.key))
                    this.shownDots.set(span.key, dots);
                if (this.firstDots === null)
                    this.firstDots = dots;
                const dot = index - (span.end - 3);
                if (dot >= 0 && tape.clusters[index] === '.' && dots.isRaised(dot, this.t))
                    return DotsEffect.RAISED;
            }
        }
        return tape.clusters[index];
    }
}

/**
 * The reveals (`r` lines) of a published `effects` string, by message key: `{start, duration,
 * stillStart, stillColumns}` (the still pair null when absent; docs/rendering.md §11.4, §12).
 */
function parseReveals(text) {
    const reveals = new Map();
    for (const line of (text ?? '').split('\n')) {
        const tokens = line.split(' ');
        if (tokens[0] !== 'r' || (tokens.length !== 4 && tokens.length !== 6))
            continue;
        const still = tokens.length === 6;
        reveals.set(unescapeToken(tokens[1]), {
            start: Number(tokens[2]), duration: Number(tokens[3]),
            stillStart: still ? Number(tokens[4]) : null, stillColumns: still ? Number(tokens[5]) : null,
        });
    }
    return reveals;
}

/** A percent-encoded key of the effects strings (`-` is the empty string). */
function unescapeToken(token) {
    if (token === '-')
        return '';
    // Every byte as %XX, then one UTF-8 decode (no TextDecoder: QML's engine has none).
    let encoded = '';
    for (let i = 0; i < token.length; i++) {
        if (token[i] === '%') {
            encoded += token.slice(i, i + 3);
            i += 2;
        } else {
            encoded += `%${(`0${token.charCodeAt(i).toString(16)}`).slice(-2)}`;
        }
    }
    try {
        return decodeURIComponent(encoded);
    } catch (e) {
        return token;
    }
}

/** `[cell, offset]` of stream position `s`: ⌊s⌋ and s − ⌊s⌋ (an offset that rounds to 1 moves on a cell). */
function split(s) {
    const cell = Math.floor(s);
    const offset = s - cell;
    return offset >= 1 ? [cell + 1, 0] : [cell, offset];
}

/** The plain object of a `Timeline` GLib.Variant (`a{sv}`). */
function fromVariant(variant) {
    return variant.recursiveUnpack();
}

/** One motion (continuous or scroll) of a tape `width` cells wide (StreamMotion in Swift). */
class Motion {
    constructor({mode, anchor, position, speed, delay, easing, loops, sign, width}) {
        Object.assign(this, {mode, anchor, position, speed, delay, easing, loops, sign, width});
    }

    get moveDuration() {
        return Math.max(1, Math.round(this.width / this.speed * MICROS));
    }

    position_(t) {
        const elapsed = t - this.anchor;
        if (this.mode === 'scroll') {
            if (this.width <= 0 || elapsed < 0)
                return this.position;
            const period = this.delay + this.moveDuration;
            const cycle = Math.floor(elapsed / period);
            if (this.loops > 0 && cycle >= this.loops)
                return this.position + this.sign * this.width * this.loops;
            const inCycle = elapsed - cycle * period;
            const p = inCycle < this.delay ? 0 : ease(this.easing, (inCycle - this.delay) / this.moveDuration);
            return this.position + this.sign * this.width * (cycle + p);
        }
        let distance = this.speed * Math.max(0, elapsed - this.delay) / MICROS;
        if (this.loops > 0)
            distance = Math.min(distance, this.width * this.loops);
        return this.position + this.sign * distance;
    }

    /** When the motion reaches stream position `target`, or null if it never does. */
    arrival(target) {
        const distance = (target - this.position) * this.sign;
        if (distance < 0)
            return null;
        if (this.mode === 'scroll') {
            if (this.width <= 0)
                return null;
            const cycles = Math.round(distance / this.width);
            if (this.loops > 0 && cycles > this.loops)
                return null;
            return this.anchor + cycles * (this.delay + this.moveDuration);
        }
        if (this.loops > 0 && distance > this.width * this.loops)
            return null;
        return this.anchor + this.delay + Math.max(0, Math.ceil(distance / this.speed * MICROS));
    }
}

/** A channel's motion as a pure function of time (the Swift `Timeline`, for pixel clients). */
var Timeline = class Timeline {
    /** `fields`: the unpacked `Timeline` dictionary (fromVariant). */
    constructor(fields) {
        this.fields = fields;
        // `wall-clock`: phase-locked, anchored at the epoch (docs/rendering.md §13); absent: local.
        this.phaseLocked = fields.phase === 'wall-clock';
        this.tape = fields.tape;
        this.gap = fields.gap ?? '';
        this.width = Number(fields.width);
        this.anchor = Number(fields.anchor);
        this.position = Number(fields.position);
        this.speed = Number(fields.speed);
        this.mode = fields.mode;
        this.delay = Number(fields.delay ?? 0);
        this.easing = fields.easing ?? 'linear';
        this.loops = Number(fields.loops ?? 0);
        this.direction = fields.direction ?? 'left';
        this.align = fields.align ?? 'left';
        this.paused = fields.paused === undefined ? null : Number(fields.paused);
        this.next = fields.next === undefined ? null : {
            tape: fields.next,
            gap: fields.nextGap ?? '',
            speed: Number(fields.nextSpeed),
            switchPosition: Number(fields.switch),
            changedAt: fields.changed === undefined ? null : Number(fields.changed),
            // The new tape's cell that continues the stream at the switch (absent: 0, §6).
            start: Number(fields.nextStart ?? 0),
            // Phase-locked: blank cells on the new side next to the switch (absent: 0, §13).
            leadIn: Number(fields.nextLeadIn ?? 0),
        };
        if (this.next)
            this.next.layout = parseLayout(fields.nextLayout);
        this.layout = parseLayout(fields.layout);
        this.reveals = parseReveals(fields.effects);
        this.effects = parseEffects(fields.effects);
        this.sign = this.direction === 'right' ? -1 : 1;
        // Each tape is read into cells once, here: every later question about its width is
        // answered from them, so a display frame costs the cells it shows, not the tape's length.
        this.cells = new TapeCells(this.tape, this.gap, this.layout);
        this.nextCells = this.next ? new TapeCells(this.next.tape, this.next.gap, this.next.layout) : null;
        if (this.next)
            this.next.width = this.nextCells.width;
    }

    /** The text of the current tape without its gap. */
    static content(tape, gap) {
        return gap && tape.endsWith(gap) ? tape.slice(0, tape.length - gap.length) : tape;
    }

    get content() {
        return Timeline.content(this.tape, this.gap);
    }

    get motion() {
        return new Motion({
            mode: this.mode, anchor: this.anchor, position: this.position, speed: this.speed,
            delay: this.delay, easing: this.easing, loops: this.loops, sign: this.sign, width: this.width,
        });
    }

    /** When the pending tape takes over, or null. */
    get switchInstant() {
        return this.next ? this.motion.arrival(this.next.switchPosition) : null;
    }

    /**
     * The motion after the switch at `switchAt` (nextMotion in Swift): the new tape from the
     * switch position; phase-locked (§13), the current motion when continuous at the same speed,
     * and in scroll mode held until the new tape's first epoch-aligned cycle.
     */
    nextMotion(switchAt) {
        const next = new Motion({
            mode: this.mode, anchor: this.mode === 'scroll' ? switchAt : switchAt - this.delay,
            position: this.next.switchPosition, speed: this.next.speed, delay: this.delay,
            easing: this.easing, loops: this.loops, sign: this.sign, width: this.next.width,
        });
        if (this.phaseLocked && this.mode === 'continuous' && this.next.speed === this.speed) {
            next.anchor = this.anchor;
            next.position = this.position;
        } else if (this.phaseLocked && this.mode === 'scroll') {
            const period = Math.max(1, this.delay + next.moveDuration);
            const below = switchAt - (((switchAt % period) + period) % period);
            next.anchor = below === switchAt ? switchAt : below + period;
        }
        return next;
    }

    /** When the pending change has fully taken effect (settleInstant in Swift), or null. */
    get settleInstant() {
        const switchAt = this.switchInstant;
        if (!this.next || switchAt === null)
            return null;
        const next = this.nextMotion(switchAt);
        const lead = this.next.leadIn;
        if (this.sign > 0) {
            if (!this.phaseLocked)
                return switchAt;
            if (this.mode === 'scroll')
                return Math.max(switchAt, next.anchor);
            return lead > 0 ? next.arrival(this.next.switchPosition + lead) : switchAt;
        }
        const reach = Math.max(0, this.cells.contentWidth - 1) + lead;
        if (this.mode === 'scroll') {
            const step = Math.max(1, this.next.width);
            return next.arrival(this.next.switchPosition - Math.ceil(reach / step) * step);
        }
        return next.arrival(this.next.switchPosition - reach);
    }

    /**
     * The timeline whose frames a viewer sees at `t`: this one, or — phase-locked, once the
     * pending change has settled — the new tape's canonical timeline, anchored at the epoch (§13).
     */
    viewAt(t) {
        if (!this.phaseLocked || !this.next)
            return this;
        const settleAt = this.settleInstant;
        if (settleAt === null || this.effectiveTime(t) < settleAt)
            return this;
        if (!this.settledView) {
            // Object.assign, not spread syntax: QML's engine (Qt 5.15) has no object spread.
            const fields = Object.assign({}, this.fields, {tape: this.next.tape, gap: this.next.gap,
                layout: this.fields.nextLayout, width: this.next.width, anchor: 0, position: 0, speed: this.next.speed});
            for (const key of ['next', 'nextGap', 'nextLayout', 'nextSpeed', 'nextStart', 'nextLeadIn', 'switch', 'changed'])
                delete fields[key];
            this.settledView = new Timeline(fields);
        }
        return this.settledView;
    }

    /** The instant frames are computed for (frozen while paused). */
    effectiveTime(t) {
        return this.paused === null ? t : Math.min(t, this.paused);
    }

    /**
     * Where the stream is at wall-clock microseconds `t`: `{position, origin, width, tape, gap}`
     * with the tape in effect (the pending one after the switch) and the stream cell of its origin.
     */
    streamState(t) {
        const now = this.effectiveTime(t);
        const switchAt = this.switchInstant;
        if (this.next && switchAt !== null && now >= switchAt) {
            const next = this.nextMotion(switchAt);
            return {position: next.position_(now), origin: this.next.switchPosition - this.next.start,
                width: this.next.width, tape: this.next.tape, gap: this.next.gap, cells: this.nextCells,
                motion: next};
        }
        return {position: this.motion.position_(now), origin: 0, width: this.width, tape: this.tape, gap: this.gap,
            cells: this.cells, motion: this.motion};
    }

    /**
     * The tape a viewer of `columns` cells sees at `t`, `{tape, gap}`: the one in effect
     * (streamState), except that while a change is pending a viewer for whom the old and the new
     * content both fit sees the new one from the instant the change was made (`changed`; nothing
     * moves, so it does not wait for the seam — docs/rendering.md §6).
     */
    viewedTape(t, columns) {
        const state = this.streamState(t);
        if (this.next && state.origin === 0 && this.showsChangeStill(columns) && this.next.changedAt !== null &&
            this.switchInstant !== null && this.effectiveTime(t) >= this.next.changedAt)
            return {tape: this.next.tape, gap: this.next.gap, layout: this.next.layout, cells: this.nextCells};
        return {tape: state.tape, gap: state.gap, layout: state.cells.layout, cells: state.cells};
    }

    /**
     * The reveal of message `key` as a viewer of `columns` cells sees it, `{start, duration}`, or
     * null: a message that waited for a seam starts at `stillStart` for viewers of at least
     * `stillColumns` cells (they show the change still), else at `start` (docs/rendering.md §11.4).
     */
    revealFor(key, columns) {
        const reveal = this.reveals.get(key);
        if (!reveal)
            return null;
        const still = reveal.stillStart !== null && columns >= reveal.stillColumns;
        return {start: still ? reveal.stillStart : reveal.start, duration: reveal.duration};
    }

    /**
     * `content` (the viewed tape's content, clusters laid out by `layout`) with the reveals at
     * real instant `t` applied: a cluster not yet revealed shows as one space per cell.
     */
    revealed(content, layout, t, columns) {
        if (this.reveals.size === 0 || !layout)
            return content;
        const parts = clusters(content);
        for (const span of layout) {
            const reveal = this.revealFor(span.key, columns);
            if (!reveal)
                continue;
            const n = span.end - span.first;
            const elapsed = Math.min(Math.max(0, t - reveal.start), reveal.duration);
            const shown = Math.floor(elapsed * n / reveal.duration);
            for (let i = span.first + shown; i < span.end && i < parts.length; i++)
                parts[i] = ' '.repeat(cellWidth(parts[i]));
        }
        return parts.join('');
    }

    /**
     * Whether a reveal of a message in `layout` still changes the text after `t` for a viewer of
     * `columns` cells (not started yet, or under way).
     */
    revealRuns(layout, t, columns) {
        return (layout ?? []).some(span => {
            const reveal = this.revealFor(span.key, columns);
            return reveal !== null && t < reveal.start + reveal.duration;
        });
    }

    /** Whether a viewer of `columns` cells sees both the old and the pending content still. */
    showsChangeStill(columns) {
        return this.next !== null && this.cells.contentWidth <= columns && this.nextCells.contentWidth <= columns;
    }

    /**
     * The text a viewer of `columns` cells sees at `t` when its content fits (placed by `align`,
     * padded to `columns`), or null when it moves (scrolling or bouncing, or pages).
     */
    stillText(t, columns) {
        const view = this.viewAt(t);
        if (view !== this)
            return view.stillText(t, columns);
        if (this.mode === 'pages')
            return null;
        if (this.viewedTape(t, columns).cells.contentWidth > columns)
            return null;
        return this.frame(t, columns).text;
    }

    /**
     * Progress in tape widths at `t` (the `cycle` extra of `Render` in continuous and scroll mode):
     * a pixel client shifts the tape left by `(cycle − ⌊cycle⌋) × tapePixelWidth`.
     * `columns`: the viewer's width in cells; text that fits does not move (cycle 0).
     */
    cycle(t, columns) {
        const view = this.viewAt(t);
        if (view !== this)
            return view.cycle(t, columns);
        if (this.mode === 'pages')
            return this.frame(t, columns).cycle;
        const state = this.streamState(t);
        if (this.mode === 'static' || state.width <= 0)
            return 0;
        if (state.cells.contentWidth <= columns)
            return 0;
        if (this.mode === 'bounce')
            return this.bounceProgress(t, this.cells.contentWidth - columns);
        return (state.position - state.origin) / state.width;
    }

    /** Bounce mode: the fraction in [0, 1] of the overflow travelled at `t`. */
    bounceProgress(t, overflow) {
        const e = this.effectiveTime(t) - this.anchor;
        if (overflow <= 0 || e < 0)
            return 0;
        const move = Math.max(1, Math.round(overflow / this.speed * MICROS));
        const period = 2 * (this.delay + move);
        const k = Math.floor(e / period);
        if (this.loops > 0 && k >= this.loops)
            return 0;
        let r = e - k * period;
        if (r < this.delay)
            return 0;
        r -= this.delay;
        if (r < move)
            return ease(this.easing, r / move);
        r -= move;
        if (r < this.delay)
            return 1;
        r -= this.delay;
        return 1 - ease(this.easing, r / move);
    }

    /**
     * The frame a viewer of `columns` cells sees at wall-clock microseconds `t`, as the daemon's
     * `Render(columns, t)` gives it (docs/rendering.md §4, effects §11): `{text, offset, cycle,
     * dots, reveal, moving}`. `extra` more cells are drawn past the right edge where the text
     * scrolls (a pixel client shows part of one more cell while the text is between cells); the
     * "fits" rule and the reveals still use `columns`. `moving` is true when the text scrolls.
     * `before` more cells are drawn before the first column where the text scrolls (a wide
     * character whose first cell has left the view is then drawn whole, its second cell still
     * in view); the result's `before` says how many were drawn (0 for still text), so column k of
     * the view is cell `before + k` of `text`, `offset` unchanged.
     */
    frame(t, columns, extra = 0, before = 0) {
        const view = this.viewAt(t);
        if (view !== this)
            return view.frame(t, columns, extra, before);
        const c = Math.max(0, columns);
        const now = this.effectiveTime(t);
        const viewed = this.viewedTape(t, c);
        const current = viewed.cells;
        const writers = [];
        const writer = tape => {
            const w = new EffectWriter(this, tape, t, c);
            writers.push(w);
            return i => w.write(i);
        };
        let text = '';
        let offset = 0;
        let cycle = 0;
        let moving = false;
        let drawnBefore = 0;
        const still = () => {
            const spare = c - current.contentWidth;
            const left = this.align === 'right' ? spare : this.align === 'center' ? Math.floor(spare / 2) : 0;
            return ' '.repeat(left) + current.content(writer(current)) + ' '.repeat(spare - left);
        };
        if (this.mode === 'static') {
            if (current.contentWidth <= c)
                text = still();
            else if (c > 0)
                text = `${current.cells(0, c - 1, writer(current))}\u2026`;
        } else if (this.mode === 'pages') {
            if (c > 0) {
                const pages = current.pages(c);
                const {index, progress} = this.pageIndex(pages, now);
                cycle = progress;
                const page = current.page(pages[index], c, writer(current));
                const spare = c - page.cells;
                const left = this.align === 'right' ? spare : this.align === 'center' ? Math.floor(spare / 2) : 0;
                text = ' '.repeat(left) + page.text + ' '.repeat(spare - left);
            }
        } else if (current.contentWidth <= c) {
            text = still();
        } else if (this.mode === 'bounce') {
            const p = this.bounceProgress(t, current.contentWidth - c);
            const overflow = current.contentWidth - c;
            const [cell, off] = split(this.sign > 0 ? overflow * p : overflow * (1 - p));
            offset = off;
            // Only content cells: none before the first, none past the last.
            drawnBefore = Math.min(before, cell);
            text = current.cells(cell - drawnBefore, cell + c + (off > 0 ? Math.min(extra, overflow - cell) : 0),
                writer(current));
            cycle = p;
            moving = true;
        } else {
            const state = this.streamState(t);
            const [cell, off] = split(state.position);
            offset = off;
            drawnBefore = before;
            text = this.streamCells(cell - before, cell + c + extra, writer);
            cycle = state.width > 0 ? (state.position - state.origin) / state.width : 0;
            moving = true;
        }
        const dotsShown = writers.find(w => w.firstDots !== null);
        const revealShown = writers.find(w => w.firstReveal !== null);
        const shown = {fields: new Set(), dots: new Map(), reveals: new Map()};
        for (const w of writers) {
            w.shownFields.forEach(name => shown.fields.add(name));
            w.shownDots.forEach((v, k) => shown.dots.set(k, v));
            w.shownReveals.forEach((v, k) => shown.reveals.set(k, v));
        }
        const result = {text, offset, cycle, moving, before: drawnBefore, shown};
        if (dotsShown)
            result.dots = dotsShown.firstDots.heights(t);
        if (revealShown) {
            const r = revealShown.firstReveal;
            result.reveal = Math.min(Math.max(0, t - r.start), r.duration) / r.duration;
        }
        return result;
    }

    /**
     * Stream cells [from, to): while a change is pending (before and after its switch), the
     * composite stream of §6 — the new side of the switch B shows new-tape cell
     * (x − B + nextStart) mod W_new.
     */
    streamCells(from, to, writer) {
        if (!this.next || this.switchInstant === null)
            return this.cells.cells(from, to, writer(this.cells));
        const seam = this.next.switchPosition;
        const newOrigin = seam - this.next.start;
        const [lower, lowerOrigin, upper, upperOrigin] = this.sign > 0
            ? [this.cells, 0, this.nextCells, newOrigin] : [this.nextCells, newOrigin, this.cells, 0];
        // The lead-in (phase-locked, §13): blank cells on the new side next to the seam.
        const lead = this.next.leadIn;
        const [blankStart, blankEnd] = this.sign > 0 ? [seam, seam + lead] : [seam - lead, seam];
        let out = '';
        if (from < blankStart)
            out += lower.cells(from - lowerOrigin, Math.min(to, blankStart) - lowerOrigin, writer(lower));
        const blank = Math.min(to, blankEnd) - Math.max(from, blankStart);
        if (blank > 0)
            out += ' '.repeat(blank);
        if (to > blankEnd)
            out += upper.cells(Math.max(from, blankEnd) - upperOrigin, to - upperOrigin, writer(upper));
        return out;
    }

    /** Pages mode: the page shown at effective instant `now`, `{index, progress}`. */
    pageIndex(pages, now) {
        const elapsed = now - this.anchor;
        const total = pages[pages.length - 1].end;
        if (elapsed < 0 || total <= 0)
            return {index: 0, progress: 0};
        const cycles = Math.floor(elapsed / total);
        if (this.loops > 0 && cycles >= this.loops)
            return {index: 0, progress: this.loops};
        const inCycle = elapsed - cycles * total;
        const index = pages.findIndex(p => p.end > inCycle);
        return {index: Math.max(0, index), progress: elapsed / total};
    }

    /**
     * What a pixel client of `columns` cells must do after drawing `frame` at `t`:
     * `{animate: true}` while the text moves (scrolls or bounces) or a shown effect changes the
     * text again within about a display frame (a fast count), else `{animate: false, at}` with
     * the next instant the frame may change — a counter's next number, a dot raised or lowered,
     * a cluster revealed, a pending change, a hold's end, a page (null: never, until the Timeline
     * changes). Never late; it may be early.
     */
    schedule(t, columns, frame) {
        const view = this.viewAt(t);
        if (view !== this)
            return view.schedule(t, columns, frame);
        const now = this.effectiveTime(t);
        let at = null;
        const consider = instant => {
            if (instant !== null && instant > t && (at === null || instant < at))
                at = instant;
        };
        if (frame.moving && this.paused === null) {
            const state = this.streamState(t);
            const motionAt = this.mode === 'bounce' ? this.bounceNextMove(t, columns) : this.motionNextMove(state.motion, now);
            if (motionAt === t)
                return {animate: true};
            consider(motionAt);
        }
        // Effects change the text at instants: a timeout waits for the next one, unless it
        // comes within about a display frame (then the frame clock runs).
        const soon = instant => instant !== null && instant - t < 20000;
        for (const name of frame.shown.fields) {
            const counter = this.effects.counters.get(name);
            const next = counter ? counter.nextChange(t) : null;
            if (soon(next))
                return {animate: true};
            consider(next);
        }
        for (const dots of frame.shown.dots.values()) {
            const next = dots.nextChange(t);
            if (soon(next))
                return {animate: true};
            consider(next);
        }
        for (const {reveal, count} of frame.shown.reveals.values()) {
            const elapsed = Math.min(Math.max(0, t - reveal.start), reveal.duration);
            const shown = Math.floor(elapsed * count / reveal.duration);
            if (count <= 0 || shown >= count)
                continue;
            const next = Math.max(t + 1, reveal.start + Math.ceil((shown + 1) * reveal.duration / count));
            if (soon(next))
                return {animate: true};
            consider(next);
        }
        if (this.paused === null) {
            // A pending change: shown at its instant to still viewers, else at the switch.
            if (this.next) {
                if (this.next.changedAt !== null && this.showsChangeStill(columns))
                    consider(this.next.changedAt);
                consider(this.switchInstant);
                // Phase-locked: the canonical timeline takes over at the settle instant (§13).
                if (this.phaseLocked)
                    consider(this.settleInstant);
            }
            if (this.mode === 'pages' && columns > 0) {
                const pages = this.viewedTape(t, columns).cells.pages(columns);
                const total = pages[pages.length - 1].end;
                const elapsed = now - this.anchor;
                if (elapsed < 0) {
                    consider(this.anchor);
                } else if (!(this.loops > 0 && Math.floor(elapsed / total) >= this.loops)) {
                    const base = now - (elapsed % total);
                    const page = pages.find(p => p.end > elapsed % total);
                    consider(base + page.end);
                }
            }
        }
        return {animate: false, at};
    }

    /** Continuous and scroll: `now` while the stream moves at `now`, else when it next moves (or null). */
    motionNextMove(motion, now) {
        const elapsed = now - motion.anchor;
        if (motion.mode === 'scroll') {
            if (motion.width <= 0)
                return null;
            if (elapsed < 0)
                return motion.anchor;
            const period = motion.delay + motion.moveDuration;
            const k = Math.floor(elapsed / period);
            if (motion.loops > 0 && k >= motion.loops)
                return null;
            const inCycle = elapsed - k * period;
            return inCycle < motion.delay ? motion.anchor + k * period + motion.delay : now;
        }
        if (motion.speed <= 0)
            return null;
        if (elapsed < motion.delay)
            return motion.anchor + motion.delay;
        if (motion.loops > 0 && motion.speed * (elapsed - motion.delay) / MICROS >= motion.width * motion.loops)
            return null;
        return now;
    }

    /** Bounce: `t` while the text moves, else when it next moves (or null). */
    bounceNextMove(t, columns) {
        const overflow = this.viewedTape(t, columns).cells.contentWidth - columns;
        const e = this.effectiveTime(t) - this.anchor;
        if (overflow <= 0)
            return null;
        if (e < 0)
            return this.anchor;
        const move = Math.max(1, Math.round(overflow / this.speed * MICROS));
        const half = this.delay + move;
        const k = Math.floor(e / (2 * half));
        if (this.loops > 0 && k >= this.loops)
            return null;
        const r = e - k * 2 * half;
        const inHalf = r % half;
        return inHalf < this.delay ? t + (this.delay - inHalf) : t;
    }

    /** Whether anything can move after `t` (false: the widget may stop its frame clock). */
    isMoving(t, columns) {
        const view = this.viewAt(t);
        if (view !== this)
            return view.isMoving(t, columns);
        // Still text types in a reveal (effects follow the real time, even while paused).
        const viewed = this.viewedTape(t, columns);
        if (this.mode !== 'pages' && viewed.cells.contentWidth <= columns &&
            this.revealRuns(viewed.layout, t, columns))
            return true;
        if (this.paused !== null || this.mode === 'static' || this.mode === 'pages')
            return false;
        const state = this.streamState(t);
        if (state.cells.contentWidth <= columns) {
            // Still text waits for a pending change: at its instant or at the switch.
            if (this.next === null)
                return false;
            return !(this.showsChangeStill(columns) && this.next.changedAt !== null &&
                this.effectiveTime(t) >= this.next.changedAt);
        }
        if (this.loops > 0)
            return this.cycle(t, columns) !== this.cycle(t + 3600 * MICROS, columns);
        return true;
    }
};
