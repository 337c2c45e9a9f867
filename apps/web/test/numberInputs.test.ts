import { parseDecimalInput, parseIntegerInput } from '@dossier/core';
import { describe, expect, it } from 'vitest';
import { commitParsed } from '../src/ui/inputs';

// Number fields keep what was typed: an invalid text is shown with its error and never committed
// (it used to be committed as undefined, which the editors turned into 0).

function commits(text: string, parse: (text: string) => number | undefined) {
  const committed: (number | undefined)[] = [];
  commitParsed(text, (v) => committed.push(v), parse);
  return committed;
}

describe('number inputs', () => {
  const integer = (x: string) => parseIntegerInput(x, { min: 0, max: 365 });
  it.each(['3.5', '12a', 'abc', '-5'])('commits nothing for the integer text %j', (text) => {
    expect(commits(text, integer)).toEqual([]);
  });
  it('commits a valid integer, clamped, and empty as undefined', () => {
    expect(commits('12', integer)).toEqual([12]);
    expect(commits('999', integer)).toEqual([365]);
    expect(commits('  ', integer)).toEqual([undefined]);
  });
  it('commits decimals with at most two places only', () => {
    const decimal = (x: string) => parseDecimalInput(x);
    expect(commits('1.25', decimal)).toEqual([1.25]);
    expect(commits('1.255', decimal)).toEqual([]);
  });
  it('commits a smart form answer at its question precision only', () => {
    const oneDecimal = (x: string) => parseDecimalInput(x, { precision: 1 });
    expect(commits('2.5', oneDecimal)).toEqual([2.5]);
    expect(commits('2.55', oneDecimal)).toEqual([]);
    const whole = (x: string) => parseDecimalInput(x, { precision: 0 });
    expect(commits('7', whole)).toEqual([7]);
    expect(commits('7.0', whole)).toEqual([]);
    const five = (x: string) => parseDecimalInput(x, { precision: 5 });
    expect(commits('0.12345', five)).toEqual([0.12345]);
  });
});
