import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { toJUnit, xmlSafe } from './junit.ts';
import { NASTY_MESSAGE, sampleReport } from '../../../testcases/fixtures/grade-report.ts';

type Element = Record<string, unknown>;

function parse(xml: string): Element {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    trimValues: false,
    parseTagValue: false,
    parseAttributeValue: false,
    // numeric character references (&#10;) decoded, as every XML parser does
    htmlEntities: true,
    isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
  });
  return parser.parse(xml) as Element;
}

describe('toJUnit', () => {
  const report = sampleReport();
  const xml = toJUnit(report);
  const root = parse(xml).testsuites as Element;
  const suites = root.testsuite as Element[];

  it("gives every <testsuite> the run's notes as run-note properties", () => {
    const text = toJUnit({ ...sampleReport(), notes: ['limits overridden for this run'] });
    expect(text.match(/<property name="run-note" value="limits overridden for this run"\/>/g)).toHaveLength(sampleReport().submissions.length);
    expect(xml).not.toContain('run-note');
  });

  it('is well-formed XML 1.0 with a declaration', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(xml.endsWith('</testsuites>\n')).toBe(true);
  });

  it('holds one <testsuite> per submission with its counts and time', () => {
    expect(root['@name']).toBe('kalah-basics');
    expect([root['@tests'], root['@failures'], root['@errors']]).toEqual(['14', '2', '3']);
    expect(suites.map((s) => s['@name'])).toEqual(report.submissions.map((s) => s.id));
    expect(suites.map((s) => [s['@tests'], s['@failures'], s['@errors']])).toEqual([
      ['6', '2', '3'],
      ['2', '0', '0'],
      ['6', '0', '0'],
    ]);
    expect(suites[0]!['@time']).toBe('3.453');
  });

  it('names each case by classname "<submission>.<category>" and the case id, time in seconds', () => {
    const cases = suites[0]!.testcase as Element[];
    expect(cases.map((c) => [c['@classname'], c['@name'], c['@time']])).toEqual([
      ['alice.move', 'move-01', '0.012'],
      ['alice.move', 'move-02', '0.012'],
      ['alice.nodes', 'nodes-01', '0.003'],
      ['alice.nodes', 'nodes-02', '1.013'],
      ['alice.playoff', 'deep-01', '2.400'],
      ['alice.playoff', 'secret-02', '0.012'],
    ]);
    expect((suites[1]!.testcase as Element[])[0]!['@classname']).toBe('=HYPERLINK("http://evil.example","click").move');
  });

  it('writes <failure> for failed (type: the failed checks) and <error type=status> for error, timeout and memory', () => {
    const cases = suites[0]!.testcase as Element[];
    expect(cases[0]!.failure).toBeUndefined();
    expect(cases[0]!.error).toBeUndefined();
    const failure = cases[1]!.failure as Element;
    expect(failure['@type']).toBe('move,value');
    expect(failure['@message']).toBe('expected move B3 (value 4), got B4 (value 2)');
    expect(failure['#text']).toBe(report.submissions[0]!.cases[1]!.message);
    expect((cases[5]!.failure as Element)['@type']).toBe('failed');
    expect([cases[2], cases[3], cases[4]].map((c) => (c!.error as Element)['@type'])).toEqual(['error', 'timeout', 'memory']);
  });

  it("round-trips a nasty message: markup, quotes, CRLF and unicode kept; ANSI and XML-invalid characters dropped", () => {
    const error = (suites[0]!.testcase as Element[])[2]!.error as Element;
    const expected = xmlSafe(NASTY_MESSAGE);
    expect(error['#text']).toBe(expected);
    expect(expected).toBe(
      'TypeError: cannot read "pits" of undefined, <script>alert(\'x\')</script> & more\r\n' +
        '  at chooseMove (agent.ts:12:5)\nred nul bell   ünïcödé 😀 =cmd()',
    );
    expect(error['@message']).toBe('TypeError: cannot read "pits" of undefined, <script>alert(\'x\')</script> & more');
  });

  it('keeps tabs, newlines and quotes in attributes (character references, not raw)', () => {
    const properties = (suites[1]!.properties as Element).property as Element[];
    const path = properties.find((p) => p['@name'] === 'path')!;
    expect(path['@value']).toBe('submissions/a, "b"\nc');
    expect(xml).toContain('value="submissions/a, &quot;b&quot;&#10;c"');
    const notes = ((suites[0]!.properties as Element).property as Element[]).filter((p) => p['@name'] === 'note');
    expect(notes.map((n) => n['@value'])).toEqual(report.submissions[0]!.notes);
  });

  it('strips every character XML 1.0 forbids, whatever the input', () => {
    let all = '';
    for (let code = 0; code < 0x10000; code++) all += String.fromCharCode(code);
    const xmlOfAll = toJUnit({
      ...report,
      submissions: [{ ...report.submissions[0]!, cases: [{ ...report.submissions[0]!.cases[2]!, message: all, id: all.slice(0, 0x2000) }] }],
    });
    expect(XMLValidator.validate(xmlOfAll)).toBe(true);
    // (the string holds \udbff\udc00: a valid pair, U+10FC00, so only lone surrogates must go)
    expect(xmlSafe(all)).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Cs}/u);
    expect(xmlSafe(all)).toContain('\u{10FC00}');
    expect(xmlSafe('a\u{1F600}b\u{10FFFF}')).toBe('a\u{1F600}b\u{10FFFF}');
  });
});
