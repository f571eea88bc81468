// Formatting: the text of a value, a change, a threshold, a factor or a
// z-score, written as the generator writes it (analysis.FormatValue,
// analysis.FormatFixed, report.FormatChange and their family), so that a
// row the script builds reads like one the generator wrote. What the
// numbers mean is decided elsewhere; nothing here fetches or draws.

// The data files store values as the exact float64 the generator
// formats; formatValue is analysis.FormatValue (analysis/value.go)
// to the digit: the same IEEE divisions pick the unit, and the decimals
// are rounded from the value's exact binary expansion, ties to even, as
// Go's strconv does. A browser test checks both agree.
var UNIT_SCALES = (function () {
  var t = {}, put = function (units, scales) { units.forEach(function (u) { t[u] = scales; }); };
  put(["ns", "ns/op"], [[1e9, "s"], [1e6, "ms"], [1e3, "µs"], [1, "ns"]]);
  put(["s", "sec", "seconds", "sec/op"], [[1, "s"], [1e-3, "ms"], [1e-6, "µs"], [1e-9, "ns"]]);
  put(["ms"], [[1e3, "s"], [1, "ms"], [1e-3, "µs"]]);
  put(["b", "byte", "bytes", "b/op"], [[1125899906842624, "PiB"], [1099511627776, "TiB"], [1073741824, "GiB"], [1048576, "MiB"], [1024, "KiB"], [1, "B"]]);
  put(["b/s", "byte/s", "bytes/s"], [[1e12, "TB/s"], [1e9, "GB/s"], [1e6, "MB/s"], [1e3, "kB/s"], [1, "B/s"]]);
  put(["mb/s"], [[1e6, "TB/s"], [1e3, "GB/s"], [1, "MB/s"], [1e-3, "kB/s"], [1e-6, "B/s"]]);
  return t;
})();
var SI_SCALES = [[1e18, "E"], [1e15, "P"], [1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"], [1, ""]];

// exact returns x (finite, not 0) as |x| = num / den with BigInts.
function exact(x) {
  var dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, Math.abs(x));
  var hi = dv.getUint32(0), lo = dv.getUint32(4);
  var e = (hi >>> 20) & 0x7ff;
  var m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (e === 0) { e = 1; } else { m |= 1n << 52n; }
  e -= 1075;
  return e >= 0 ? {num: m << BigInt(e), den: 1n} : {num: m, den: 1n << BigInt(-e)};
}
// roundEven is num/den rounded to an integer, ties to even.
function roundEven(num, den) {
  var q = num / den, r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && (q & 1n) === 1n)) { q += 1n; }
  return q;
}
var pow10 = function (n) { return 10n ** BigInt(n); };
// fixedDigits is |x| with d decimals (strconv 'f', d).
function fixedDigits(x, d) {
  if (x === 0) { return d > 0 ? "0." + "0".repeat(d) : "0"; }
  var r = exact(x), s = roundEven(r.num * pow10(d), r.den).toString();
  if (d > 0) {
    s = s.padStart(d + 1, "0");
    s = s.slice(0, s.length - d) + "." + s.slice(s.length - d);
  }
  return s;
}
// decimalExponent is floor(log10 |x|), exactly.
function decimalExponent(x) {
  var r = exact(x), e = Math.floor(Math.log10(Math.abs(x)));
  var ge = function (k) { return k >= 0 ? r.num >= r.den * pow10(k) : r.num * pow10(-k) >= r.den; };
  while (!ge(e)) { e--; }
  while (ge(e + 1)) { e++; }
  return e;
}
// formatG4 is strconv.FormatFloat(x, 'g', 4, 64).
function formatG4(x) {
  var sign = x < 0 ? "-" : "", r = exact(x), e = decimalExponent(x), p = 4;
  var shift = p - 1 - e;
  var q = shift >= 0 ? roundEven(r.num * pow10(shift), r.den) : roundEven(r.num, r.den * pow10(-shift));
  if (q === pow10(p)) { q = pow10(p - 1); e++; }
  var digits = q.toString().replace(/0+$/, ""), nd = digits.length, dp = e + 1;
  var eprec = p;
  if (eprec > nd && nd >= dp) { eprec = nd; }
  if (e < -4 || e >= eprec) {
    var exp = Math.abs(e) < 10 ? "0" + Math.abs(e) : String(Math.abs(e));
    return sign + digits.charAt(0) + (nd > 1 ? "." + digits.slice(1) : "") + "e" + (e < 0 ? "-" : "+") + exp;
  }
  var prec = p > dp ? nd : p, decimals = Math.max(prec - dp, 0), intPart, frac;
  if (dp <= 0) {
    intPart = "0";
    frac = ("0".repeat(-dp) + digits).padEnd(decimals, "0").slice(0, decimals);
  } else {
    intPart = (digits + "0".repeat(Math.max(dp - nd, 0))).slice(0, dp);
    frac = digits.slice(dp).padEnd(decimals, "0");
  }
  return sign + intPart + (decimals > 0 ? "." + frac : "");
}
function sig4(v) {
  if (v === 0) { return "0"; }
  var a = Math.abs(v);
  if (a >= 1e15 || a < 1e-6) { return formatG4(v); }
  if (a >= 1e4) { return (v < 0 ? "-" : "") + fixedDigits(v, 0).replace(/\B(?=(\d{3})+$)/g, ","); }
  var s = (v < 0 ? "-" : "") + fixedDigits(v, Math.max(3 - decimalExponent(a), 0));
  if (s.indexOf(".") >= 0) { s = s.replace(/0+$/, "").replace(/\.$/, ""); }
  return s;
}
// scaled is v in the first scale it reaches, its name before unit
// (analysis.ValueParts).
function scaled(v, scales, unit) {
  var a = Math.abs(v), s = scales[scales.length - 1];
  for (var i = 0; i < scales.length; i++) {
    if (a >= scales[i][0]) { s = scales[i]; break; }
  }
  return (sig4(v / s[0]) + " " + (s[1] + " " + unit).trim()).trim();
}
function formatValue(v, unit) {
  if (!isFinite(v)) { return "n/a"; }
  unit = unit || "";
  var u = unit.toLowerCase();
  if (UNIT_SCALES[u]) { return scaled(v, UNIT_SCALES[u], ""); }
  if (unit === "%") { return sig4(v) + " %"; }
  return scaled(v, SI_SCALES, unit === "count" || unit === "unit" ? "" : unit); // analysis.shownUnit
}
// The fixed-decimal formats of analysis.FormatFixed and its family:
// strconv's 'f' below FIXED_LIMIT, its 'e' with the same decimals from
// there, "n/a" when not finite.
var FIXED_LIMIT = 1e6;
function expDigits(x, d) {
  var r = exact(x), e = decimalExponent(x), shift = d - e;
  var q = shift >= 0 ? roundEven(r.num * pow10(shift), r.den) : roundEven(r.num, r.den * pow10(-shift));
  if (q === pow10(d + 1)) { q = pow10(d); e++; }
  var s = q.toString(), ae = Math.abs(e);
  return s.charAt(0) + (d > 0 ? "." + s.slice(1) : "") + "e" + (e < 0 ? "-" : "+") + (ae < 10 ? "0" + ae : String(ae));
}
function formatFixed(x, d) {
  if (!isFinite(x)) { return "n/a"; }
  var sign = x < 0 ? "-" : "", a = Math.abs(x);
  return sign + (a < FIXED_LIMIT ? fixedDigits(a, d) : expDigits(a, d));
}
function plusSign(x, s) { return x >= 0 && x !== Infinity ? "+" + s : s; }
function formatPercent(x, d) {
  if (!isFinite(x)) { return "n/a"; }
  if (Math.abs(x) < FIXED_LIMIT / 100) { return formatFixed(x * 100, d) + "%"; }
  var s = (x < 0 ? "-" : "") + expDigits(Math.abs(x), d), i = s.lastIndexOf("e");
  var e = parseInt(s.slice(i + 1), 10) + 2, ae = Math.abs(e);
  return s.slice(0, i) + "e" + (e < 0 ? "-" : "+") + (ae < 10 ? "0" + ae : String(ae)) + "%";
}
// report.ZCapped: the title of a z-score shown capped ("> +10").
var Z_CAPPED = "beyond ±10 a z-score only says that the change is far outside the series' run-to-run noise, which a metric with tiny noise (an instruction count) makes of any change: the % change says how large it is";
// report.FormatChange, FormatThreshold and FormatFactor.
function formatChange(c) {
  if (c === Infinity) { return "+∞%"; }
  if (c === -Infinity) { return "-∞%"; }
  return plusSign(c, formatPercent(c, 2));
}
function formatThreshold(t) { return t === 0 ? "-" : formatPercent(t, 2); }
function formatFactor(f) { return f === 0 ? "-" : formatFixed(f, 2) + "x"; }

// fixedText is the text of a number stored as the integer of its digits
// (see sitemodel.Fixed): n with the given decimals, a sign ("+" too
// when plus) and a suffix; text is kept as it is.
function fixedText(n, decimals, suffix, plus) {
  if (typeof n === "string") { return n; }
  var neg = n < 0 || Object.is(n, -0), digits = String(Math.abs(n));
  if (decimals > 0) {
    digits = digits.padStart(decimals + 1, "0");
    digits = digits.slice(0, digits.length - decimals) + "." + digits.slice(digits.length - decimals);
  }
  return (neg ? "-" : plus ? "+" : "") + digits + suffix;
}
