// Whether a YYYY-MM-DD string names a day of the (proleptic Gregorian) calendar – no 2026-02-30, which Date would
// roll into March. By hand rather than date-fns's isMatch: its format parser loads ~75 modules into every CLI start,
// and the rule is four lines.
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isCalendarDay(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}
