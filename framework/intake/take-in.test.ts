/**
 * The intake on exports built here the way each LMS names its files (Canvas flat with _LATE, a -1
 * resubmission, each file its own id, anonymous grading's names and a student's own zip; Moodle folders, flat files, blind marking and a group, with
 * __MACOSX; Blackboard with receipts and two attempts; Gradescope's metadata; GitHub Classroom
 * clones; wrapper folders), the roster forms, and the clear errors.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterEach, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { UserError } from '../errors.ts';
import { isCanvasName } from './layouts/canvas.ts';
import { describeIntake, takeInSubmissions, type Intake } from './take-in.ts';

const dirs: string[] = [];
const intakes: Intake[] = [];
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'intake-test-'));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  for (const i of intakes.splice(0)) await i.dispose();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function zip(files: Record<string, string | Buffer>): Promise<Buffer> {
  const z = new ZipFile();
  for (const [name, data] of Object.entries(files)) z.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name, { mtime: new Date('2024-03-01T12:00:00Z') });
  z.end();
  return buffer(z.outputStream);
}

function tree(root: string, files: Record<string, string | Buffer>): string {
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), data);
  }
  return root;
}

async function take(paths: string[], o: Parameters<typeof takeInSubmissions>[1] = {}): Promise<Intake> {
  const intake = await takeInSubmissions(paths, o);
  intakes.push(intake);
  return intake;
}

const byId = (intake: Intake) => Object.fromEntries(intake.records.map((r) => [r.id, r]));
const read = (path: string) => readFileSync(path, 'utf8');

describe('Canvas "Download Submissions"', () => {
  it('groups the flat files by student (each file its own number), restores the names, keeps the latest resubmission and the late mark, opens a student\'s zip', async () => {
    const d = temp();
    const own = await zip({ 'bob/agent.ts': 'bob agent', 'bob/helpers.ts': 'bob helpers', '__MACOSX/bob/._agent.ts': 'fork' });
    writeFileSync(
      join(d, 'canvas.zip'),
      await zip({
        'smithalice_LATE_1001_70001_agent.ts': 'alice old',
        'smithalice_LATE_1001_70004_agent-1.ts': 'alice latest',
        'smithalice_LATE_1001_70002_helpers.ts': 'alice helpers',
        'jonesbob_1002_70003_submission.zip': own,
        '__MACOSX/._smithalice_LATE_1001_70001_agent.ts': 'fork',
        '.DS_Store': 'junk',
      }),
    );
    const intake = await take([join(d, 'canvas.zip')]);
    expect(intake.reads).toEqual([{ path: join(d, 'canvas.zip'), layout: 'canvas', count: 2 }]);
    const { 1001: alice, 1002: bob } = byId(intake);
    expect(alice).toMatchObject({ name: 'smithalice', late: true, lms: { userId: '1001' }, files: ['agent.ts', 'helpers.ts'], layout: 'canvas' });
    expect(alice!.lms).toEqual({ userId: '1001' });
    expect(read(join(alice!.path, 'agent.ts'))).toBe('alice latest');
    expect(alice!.notes).toEqual(["agent-1.ts: Canvas's name for a file uploaded again, restored to agent.ts", 'agent.ts: an earlier upload of a file kept under the same name: left out']);
    expect(alice!.source).toBe(`${join(d, 'canvas.zip')}/smithalice_LATE_1001_*`);
    // The student's own zip, opened, its wrapper folder looked through, its junk left out.
    expect(bob).toMatchObject({ late: false, files: ['agent.ts', 'helpers.ts'] });
    expect(read(join(bob!.path, 'agent.ts'))).toBe('bob agent');
    expect(alice!.path.endsWith('/1001')).toBe(true);
    // Canvas stamps every file with the time the zip was made: no time is taken from it, and the record says why.
    for (const r of [alice!, bob!]) {
      expect(r.submittedAt).toBeUndefined();
      expect(r.noTimes).toMatch(/^Canvas's download carries no submission times/);
    }
    expect(describeIntake(intake)).toBe(`intake: 2 submissions, read as Canvas "Download Submissions" (${join(d, 'canvas.zip')})`);
  });

  it("keeps every file of a student with two (each Canvas file has its own id), and of a resubmitted file the latest", async () => {
    const d = tree(temp(), {
      // Two files of one submission: two file ids, one student.
      'smithalice_1001_70001_mancala.py': 'alice mancala',
      'smithalice_1001_70002_helpers.py': 'alice helpers',
      // A file uploaded again: Canvas's -1, a later file id.
      'jonesbob_LATE_1002_70010_mancala.py': 'bob first',
      'jonesbob_LATE_1002_70011_mancala-1.py': 'bob latest',
      'jonesbob_LATE_1002_70012_notes.txt': 'bob notes',
    });
    const intake = await take([d]);
    expect(intake.records.map((r) => [r.id, r.files, r.late])).toEqual([
      ['1001', ['helpers.py', 'mancala.py'], false],
      ['1002', ['mancala.py', 'notes.txt'], true],
    ]);
    const { 1001: alice, 1002: bob } = byId(intake);
    expect(read(join(alice!.path, 'mancala.py'))).toBe('alice mancala');
    expect(read(join(alice!.path, 'helpers.py'))).toBe('alice helpers');
    expect(read(join(bob!.path, 'mancala.py'))).toBe('bob latest');
  });

  it('reads the unzipped folder the same way: the highest -N first, then the highest file id (two downloads merged)', async () => {
    const d = tree(temp(), {
      'smithalice_1001_70003_mancala-2.py': 'latest',
      'smithalice_1001_70002_mancala-1.py': 'older',
      'smithalice_1001_70001_mancala.py': 'first',
      // Two downloads merged: the same name twice, the later upload has the higher file id.
      'leecarol_1003_80001_agent.py': 'carol old',
      'leecarol_1003_80007_agent.py': 'carol new',
    });
    const intake = await take([d]);
    expect(intake.records.map((r) => [r.id, r.files])).toEqual([
      ['1001', ['mancala.py']],
      ['1003', ['agent.py']],
    ]);
    expect(read(join(intake.records[0]!.path, 'mancala.py'))).toBe('latest');
    expect(read(join(intake.records[1]!.path, 'agent.py'))).toBe('carol new');
  });

  it('reads anonymous grading\'s anon_<id> names (LATE_ first when late), a name with an underscore, and says what a text entry is', async () => {
    const d = tree(temp(), {
      'anon_Xk3Pq_70001_mancala.py': 'anon one',
      'anon_Xk3Pq_70002_helpers.py': 'anon one helpers',
      'LATE_anon_7hJ2a_70003_mancala.py': 'anon two',
      "o_brienpat_1004_70004_mancala.py": 'pat',
      'smithalice_1001_text.html': '<p>hi</p>',
    });
    const intake = await take([d]);
    const r = byId(intake);
    expect(Object.keys(r).sort()).toEqual(['1004', 'anon_7hJ2a', 'anon_Xk3Pq']);
    expect(r.anon_Xk3Pq).toMatchObject({ late: false, files: ['helpers.py', 'mancala.py'], lms: { anonymousId: 'Xk3Pq' }, source: `${d}/anon_Xk3Pq_*` });
    expect(r.anon_Xk3Pq!.name).toBeUndefined();
    expect(r.anon_7hJ2a).toMatchObject({ late: true, files: ['mancala.py'], source: `${d}/LATE_anon_7hJ2a_*` });
    expect(r['1004']).toMatchObject({ name: 'o_brienpat', lms: { userId: '1004' } });
    // Canvas's names hold no _<digits>_ (it takes them out): a Moodle file with numbers in its name is no Canvas name.
    expect(isCanvasName('Bob Jones_2002_assignsubmission_file_data_1_2_x.py')).toBe(false);
    expect(isCanvasName('smithalice_1001_70001_data_1_2_x.py')).toBe(true);
    expect(intake.notes).toEqual([
      `${d}/smithalice_1001_text.html: a text entry or link submitted online (Canvas's page, no file): left out`,
      `${d}: Canvas's download carries no submission times (each file in it bears the time the zip was made): only its _LATE mark says who was late`,
    ]);
  });
});

describe('times of a zip', () => {
  it('a zip whose entries all bear one time gives none (said once); one with times of their own gives them', async () => {
    const d = temp();
    writeFileSync(join(d, 'same.zip'), await zip({ 'alice/agent.ts': 'a', 'bob/agent.ts': 'b' }));
    const same = await take([join(d, 'same.zip')]);
    expect(same.records.map((r) => r.submittedAt)).toEqual([undefined, undefined]);
    expect(same.records[0]!.noTimes).toBe(`every file in ${join(d, 'same.zip')} has the same time (2024-03-01T12:00:00.000Z), the time the zip was made, not when each was handed in`);
    expect(same.notes).toEqual([`${same.records[0]!.noTimes}: no submission times are taken from them`]);
    const z = new ZipFile();
    z.addBuffer(Buffer.from('a'), 'alice/agent.ts', { mtime: new Date('2024-03-01T10:00:00Z') });
    z.addBuffer(Buffer.from('b'), 'bob/agent.ts', { mtime: new Date('2024-03-02T10:00:00Z') });
    z.end();
    writeFileSync(join(d, 'own.zip'), await buffer(z.outputStream));
    const own = await take([join(d, 'own.zip')]);
    expect(own.records.map((r) => [r.id, r.submittedAt, r.submittedAtSource, r.noTimes])).toEqual([
      ['alice', '2024-03-01T10:00:00.000Z', 'file-times', undefined],
      ['bob', '2024-03-02T10:00:00.000Z', 'file-times', undefined],
    ]);
  });
});

describe('hostile files in a download', () => {
  it("refuses a student's zip entries that climb out or are links, and a link in the export, naming no target", async () => {
    const d = temp();
    const inner = new ZipFile();
    inner.addBuffer(Buffer.from('mine'), 'agent.ts');
    inner.addBuffer(Buffer.from('escaped'), 'zz/zz/evil.ts');
    inner.addBuffer(Buffer.from('/etc/shadow'), 'peek', { mode: 0o120777 });
    inner.end();
    const patched = Buffer.from(await buffer(inner.outputStream));
    for (let at = patched.indexOf('zz/zz/'); at >= 0; at = patched.indexOf('zz/zz/', at + 1)) patched.write('../../', at);
    const folder = tree(join(d, 'download'), { 'leecarol_1003_70031_work.zip': patched });
    symlinkSync('/etc/passwd', join(folder, 'leecarol_1003_70032_passwd.ts'));
    const intake = await take([folder]);
    const [carol] = intake.records;
    expect(carol!.files).toEqual(['agent.ts']);
    expect(carol!.notes).toEqual([
      'passwd.ts: a symbolic link (refused)',
      'work.zip: ../../evil.ts: refused (it climbs out of the folder (..))',
      'work.zip: peek: a symbolic link (refused)',
      'looked through the folder work/ that held everything',
    ]);
    expect(carol!.notes.join('\n')).not.toMatch(/etc/);
    expect(existsSync(join(intake.root, '..', 'evil.ts'))).toBe(false);
    expect(existsSync(join(dirname(intake.root), 'evil.ts'))).toBe(false);
  });
});

describe('one student\'s zip bomb', () => {
  it('stops at its own cap and leaves the next student\'s zip whole', async () => {
    const d = tree(temp(), {});
    writeFileSync(join(d, 'aaron_1001_70001_bomb.zip'), await zip({ 'zeros.bin': Buffer.alloc(3 << 20) }));
    writeFileSync(join(d, 'zed_1002_70002_work.zip'), await zip({ 'agent.ts': 'fine', 'more.bin': Buffer.alloc(700 << 10) }));
    const intake = await take([d], { archiveLimits: { bytes: 1 << 20 } });
    const [aaron, zed] = intake.records;
    expect(aaron!.files).toEqual([]);
    expect(aaron!.notes[0]).toBe('bomb.zip: zeros.bin: declares 3 MB, more than the 1 MB taken from an archive; it and the rest were left out');
    expect(zed!.files).toEqual(['agent.ts', 'more.bin']);
  });
});

describe('Moodle "Download all submissions"', () => {
  it('reads folders and flat files, blind marking and a group, leaving __MACOSX and online text out', async () => {
    const d = temp();
    writeFileSync(
      join(d, 'moodle.zip'),
      await zip({
        'Alice Smith_1234_assignsubmission_file_/agent.ts': 'alice',
        'Alice Smith_1234_assignsubmission_onlinetext_/onlinetext.html': '<p>hi</p>',
        '__MACOSX/Alice Smith_1234_assignsubmission_file_/._agent.ts': 'fork',
        'Participant_2001_assignsubmission_file_/src/agent.ts': 'anon',
        'Group-Team Kalah_3001_assignsubmission_file_agent.ts': 'team',
        'Bob Jones_1235_assignsubmission_file_agent.ts': 'bob',
      }),
    );
    const intake = await take([join(d, 'moodle.zip')]);
    expect(intake.reads[0]!.layout).toBe('moodle');
    const r = byId(intake);
    expect(Object.keys(r).sort()).toEqual(['1234', '1235', '2001', '3001']);
    expect(r['1234']).toMatchObject({ name: 'Alice Smith', files: ['agent.ts'], lms: { userId: '1234' } });
    expect(r['1234']!.notes).toEqual(["Alice Smith_1234_assignsubmission_onlinetext_: Moodle's onlinetext submission, no file: left out"]);
    expect(r['2001']!.name).toBeUndefined();
    expect(r['2001']!.files).toEqual(['src/agent.ts']);
    expect(r['3001']).toMatchObject({ name: 'Team Kalah', lms: { group: 'Team Kalah' }, files: ['agent.ts'] });
    expect(r['1235']).toMatchObject({ name: 'Bob Jones', files: ['agent.ts'] });
  });
});

describe('Blackboard "Assignment File Download"', () => {
  it('restores the original names from the receipt, takes the name and the latest attempt', async () => {
    const receipt = (file: string, stamp: string) =>
      [
        'Name: Alice Smith (asmith)',
        'Assignment: Mancala',
        'Date Submitted: Monday, January 15, 2024 11:58:03 PM EST',
        'Current Grade: Needs Grading',
        '',
        'Files:',
        `\tOriginal filename: ${file}`,
        `\tFilename: Mancala_asmith_attempt_${stamp}_${file.replace(/ /g, '')}`,
        '',
      ].join('\n');
    const d = tree(temp(), {
      'Mancala_asmith_attempt_2024-01-14-10-00-00.txt': receipt('my agent.ts', '2024-01-14-10-00-00'),
      'Mancala_asmith_attempt_2024-01-14-10-00-00_myagent.ts': 'first try',
      'Mancala_asmith_attempt_2024-01-15-23-58-03.txt': receipt('my agent.ts', '2024-01-15-23-58-03'),
      'Mancala_asmith_attempt_2024-01-15-23-58-03_myagent.ts': 'second try',
      'Mancala_bjones_attempt_2024-01-15-20-00-00_agent.ts': 'bob, no receipt',
    });
    const intake = await take([d]);
    expect(intake.reads[0]!.layout).toBe('blackboard');
    const { asmith, bjones } = byId(intake);
    expect(asmith).toMatchObject({ name: 'Alice Smith', attempt: 2, submittedAt: '2024-01-15T23:58:03', submittedAtSource: 'export', files: ['my agent.ts'], lms: { login: 'asmith' } });
    expect(read(join(asmith!.path, 'my agent.ts'))).toBe('second try');
    expect(bjones).toMatchObject({ attempt: 1, files: ['agent.ts'] });
  });
});

describe('Gradescope "Export Submissions"', () => {
  const metadata = [
    'submission_111:',
    '  :submitters:',
    '  - :name: Alice Smith',
    "    :sid: '1001'",
    '    :email: alice@example.edu',
    '  :created_at: 2024-01-15 23:58:03.123456000 -08:00',
    '  :score: 10.0',
    'submission_222:',
    '  :submitters:',
    '  - :name: Bob Jones',
    "    :sid: '1002'",
    '    :email: bob@example.edu',
    '  - :name: Carol Lee',
    "    :sid: '1003'",
    '    :email: carol@example.edu',
    '  :created_at: 2024-01-14 10:00:00 +00:00',
    '',
  ].join('\n');

  it('gives names, emails, sids, times and a group\'s members from the metadata, through the export\'s wrapper folder', async () => {
    const d = temp();
    writeFileSync(
      join(d, 'export.zip'),
      await zip({ 'assignment_42_export/submission_metadata.yml': metadata, 'assignment_42_export/submission_111/agent.ts': 'alice', 'assignment_42_export/submission_222/agent.ts': 'team' }),
    );
    const intake = await take([join(d, 'export.zip')]);
    expect(intake.reads[0]!.layout).toBe('gradescope');
    const { 1001: alice, 1002: team } = byId(intake);
    expect(alice).toMatchObject({ name: 'Alice Smith', email: 'alice@example.edu', submittedAt: '2024-01-15T23:58:03.123-08:00', submittedAtSource: 'export', lms: { submissionId: '111', userId: '1001' }, files: ['agent.ts'] });
    expect(team!.members).toEqual([
      { name: 'Bob Jones', email: 'bob@example.edu', id: '1002' },
      { name: 'Carol Lee', email: 'carol@example.edu', id: '1003' },
    ]);
  });

  it('says which file and field is malformed', async () => {
    const d = tree(temp(), { 'submission_metadata.yml': 'submission_111:\n  :submitters: nobody\n', 'submission_111/agent.ts': 'x' });
    await expect(take([d])).rejects.toThrow(new UserError(`${d}/submission_metadata.yml: submission_111: :submitters: expected a list of students, each with :name:, :sid: and :email:`));
    const e = tree(temp(), { 'submission_metadata.yml': 'submission_111:\n  :submitters:\n  - :sid: 1\n  :created_at: yesterday\n', 'submission_111/agent.ts': 'x' });
    await expect(take([e])).rejects.toThrow(/submission_metadata\.yml: submission_111: :created_at: expected a time/);
  });
});

describe('GitHub Classroom, folders, wrappers', () => {
  it('names each clone by its login, leaves .git out', async () => {
    const d = tree(temp(), { 'mancala-hw1-alice/agent.ts': 'a', 'mancala-hw1-alice/.git/HEAD': 'ref', 'mancala-hw1-bob42/agent.ts': 'b', 'mancala-hw1-bob42/.git/HEAD': 'ref' });
    const intake = await take([d]);
    expect(intake.reads[0]!.layout).toBe('github-classroom');
    expect(intake.records.map((r) => [r.id, r.files])).toEqual([
      ['alice', ['agent.ts']],
      ['bob42', ['agent.ts']],
    ]);
  });

  it('reads a zip of a wrapper folder of students, a student\'s wrapper folder looked through, src/ kept', async () => {
    const d = temp();
    writeFileSync(join(d, 'class.zip'), await zip({ 'class/alice/alice/agent.ts': 'a', 'class/bob/src/agent.ts': 'b', 'class/carol/agent.ts': 'c' }));
    const intake = await take([join(d, 'class.zip')]);
    expect(intake.reads[0]!.layout).toBe('folders');
    expect(intake.records.map((r) => [r.id, r.files])).toEqual([
      ['alice', ['agent.ts']],
      ['bob', ['src/agent.ts']],
      ['carol', ['agent.ts']],
    ]);
    expect(intake.records[0]!.notes).toEqual(['looked through the folder alice/ that held everything']);
  });

  it('takes folders and agent files given one by one as today, named as grading names them, links refused', async () => {
    const d = tree(temp(), { 'alice/agent.ts': 'a', 'bob.ts': 'b' });
    symlinkSync('/etc/passwd', join(d, 'alice/secret.txt'));
    utimesSync(join(d, 'alice/agent.ts'), new Date('2024-02-02T00:00:00Z'), new Date('2024-02-02T00:00:00Z'));
    const intake = await take([join(d, 'alice'), join(d, 'bob.ts')]);
    expect(intake.reads.map((r) => r.layout)).toEqual(['single', 'single']);
    const { alice, bob } = byId(intake);
    expect(alice).toMatchObject({ files: ['agent.ts'], notes: ['secret.txt: a symbolic link (refused)'], submittedAt: '2024-02-02T00:00:00.000Z' });
    expect(bob!.path.endsWith('/bob/bob.ts')).toBe(true);
    expect(existsSync(bob!.path)).toBe(true);
  });

  it('gives two submissions of one name different ids, and refuses a path that is not there', async () => {
    const d = tree(temp(), { 'a/alice/agent.ts': 'a', 'b/alice/agent.ts': 'b' });
    const intake = await take([join(d, 'a/alice'), join(d, 'b/alice')]);
    expect(intake.records.map((r) => r.id)).toEqual(['alice', 'alice-2']);
    await expect(take([join(d, 'nope')])).rejects.toThrow(`submission ${join(d, 'nope')}: no such file or folder`);
  });
});

describe('a snapshot folder the caller gives (a tournament\'s --out)', () => {
  it('is made again on the next run, and a folder of the instructor\'s own is never emptied', async () => {
    const d = tree(temp(), { 'class/alice/agent.ts': 'a', 'class/bob/agent.ts': 'b', 'mine/notes.txt': 'keep me' });
    const first = await take([join(d, 'class')], { root: join(d, 'out/submissions') });
    const again = await take([join(d, 'class')], { root: join(d, 'out/submissions') });
    expect(again.records.map((r) => r.path)).toEqual(first.records.map((r) => r.path));
    expect(read(join(again.records[0]!.path, 'agent.ts'))).toBe('a');
    await expect(take([join(d, 'class')], { root: join(d, 'mine') })).rejects.toThrow(`${join(d, 'mine')}: already exists and holds files the intake did not make`);
    expect(read(join(d, 'mine/notes.txt'))).toBe('keep me');
  });
});

describe('--roster', () => {
  const canvasExport = async (d: string) => {
    writeFileSync(join(d, 'canvas.zip'), await zip({ 'smithalice_1001_70001_agent.ts': 'a', 'jonesbob_1002_70002_agent.ts': 'b', 'nobodyzed_1009_70009_agent.ts': 'z' }));
    return join(d, 'canvas.zip');
  };

  it("maps Canvas's export to Canvas's gradebook, skips Points Possible, lists the unmatched both ways once", async () => {
    const d = temp();
    writeFileSync(
      join(d, 'gradebook.csv'),
      '\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,Mancala (77)\r\n    Points Possible,,,,,100\r\n"Smith, Alice",1001,S1001,asmith,Sec 1,\r\n"Jones, Bob",1002,S1002,bjones,Sec 1,\r\n"Lee, Carol",1003,S1003,clee,Sec 2,\r\n',
    );
    const intake = await take([await canvasExport(d)], { roster: join(d, 'gradebook.csv') });
    const { 1001: alice } = byId(intake);
    expect(alice).toMatchObject({ name: 'Smith, Alice', lms: { userId: '1001', sisUserId: 'S1001', login: 'asmith', section: 'Sec 1' } });
    expect(intake.roster).toMatchObject({ form: 'canvas', matched: 2, unmatchedSubmissions: [`${join(d, 'canvas.zip')}/nobodyzed_1009_*`] });
    expect(intake.roster!.withoutSubmission.map((e) => [e.id, e.name, e.line])).toEqual([['1003', 'Lee, Carol', 5]]);
  });

  it("maps by name to Moodle's grade export, the id its ID number", async () => {
    const d = temp();
    tree(d, { 'export/Alice Smith_1234_assignsubmission_file_/agent.ts': 'a', 'export/Bob Jones_1235_assignsubmission_file_/agent.ts': 'b' });
    writeFileSync(join(d, 'grades.csv'), 'First name,Surname,ID number,Institution,Department,Email address\nAlice,Smith,A-77,,,alice@example.edu\nBob,Jones,,,,bob@example.edu\n');
    const intake = await take([join(d, 'export')], { roster: join(d, 'grades.csv') });
    expect(intake.records.map((r) => [r.id, r.email, r.lms?.userId])).toEqual([
      ['A-77', 'alice@example.edu', '1234'],
      ['bob@example.edu', 'bob@example.edu', '1235'],
    ]);
    expect(intake.records[0]!.path.endsWith('/A-77')).toBe(true);
    expect(intake.roster).toMatchObject({ form: 'moodle', matched: 2, unmatchedSubmissions: [], withoutSubmission: [] });
  });

  it('maps plain folders to a plain id,name,email roster, and names the line of a malformed one', async () => {
    const d = tree(temp(), { 'alice/agent.ts': 'a', 'bob/agent.ts': 'b' });
    writeFileSync(join(d, 'roster.csv'), 'id,name,email\nalice,Alice Smith,alice@example.edu\ncarol,Carol Lee,\n');
    const intake = await take([join(d, 'alice'), join(d, 'bob')], { roster: join(d, 'roster.csv') });
    expect(intake.records[0]).toMatchObject({ id: 'alice', name: 'Alice Smith', email: 'alice@example.edu' });
    expect(intake.roster).toMatchObject({ matched: 1, unmatchedSubmissions: [join(d, 'bob')] });
    expect(intake.roster!.withoutSubmission.map((e) => e.id)).toEqual(['carol']);
    writeFileSync(join(d, 'bad.csv'), 'id,name\n,Nobody\n');
    await expect(take([join(d, 'alice')], { roster: join(d, 'bad.csv') })).rejects.toThrow(`--roster ${join(d, 'bad.csv')}:2: column id: expected the student's id`);
    writeFileSync(join(d, 'what.csv'), 'who,when\nx,y\n');
    await expect(take([join(d, 'alice')], { roster: join(d, 'what.csv') })).rejects.toThrow(/what\.csv:1: the header names no roster form/);
  });
});

describe('links and stray files beside the students\' folders', () => {
  it('a folder per student stays one, a link refused as no student\'s and a stray file ignored, each named once', async () => {
    const d = tree(temp(), { 'cls/alice/agent.ts': 'a', 'cls/bob/agent.ts': 'b', 'cls/grades.csv': 'id,score\n', 'cls/.DS_Store': 'x' });
    symlinkSync('alice', join(d, 'cls/carol'));
    const intake = await take([join(d, 'cls')]);
    expect(intake.reads[0]).toMatchObject({ layout: 'folders', count: 2 });
    expect(intake.records.map((r) => r.id)).toEqual(['alice', 'bob']);
    expect(intake.notes).toEqual([`${join(d, 'cls')}/carol: a symbolic link (refused)`, `${join(d, 'cls')}/grades.csv: not a folder: ignored`]);
    expect(describeIntake(intake)).toBe(`intake: 2 submissions, read as a folder per student (${join(d, 'cls')})`);
  });

  it('GitHub Classroom clones stay clones beside a link and a README', async () => {
    const d = tree(temp(), { 'c/hw-alice/agent.ts': 'a', 'c/hw-alice/.git/HEAD': 'r', 'c/hw-bob/agent.ts': 'b', 'c/hw-bob/.git/HEAD': 'r', 'c/README.md': 'hi' });
    symlinkSync('hw-alice', join(d, 'c/hw-eve'));
    const intake = await take([join(d, 'c')]);
    expect(intake.reads[0]).toMatchObject({ layout: 'github-classroom', count: 2 });
    expect(intake.records.map((r) => r.id)).toEqual(['alice', 'bob']);
    expect(intake.notes).toEqual([`${join(d, 'c')}/README.md: not a folder: ignored`, `${join(d, 'c')}/hw-eve: a symbolic link (refused)`]);
  });

  it('a submission with code beside its folders, or a src/ folder, or as many stray files as folders, stays one submission', async () => {
    const d = tree(temp(), {
      'one/agent.py': 'a', 'one/players/x.py': 'x', 'one/strategies/y.py': 'y',
      'two/src/agent.ts': 'a', 'two/helpers/h.ts': 'h', 'two/README.md': 'r',
      'three/agent/agent.ts': 'a', 'three/NOTES.txt': 'n',
    });
    for (const name of ['one', 'two', 'three']) {
      const intake = await take([join(d, name)]);
      expect(intake.reads[0], name).toMatchObject({ layout: 'single', count: 1 });
    }
  });
});
