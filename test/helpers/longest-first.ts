// The order files start in: longest first over both projects, by the duration vitest's cache holds from the last run
// of each file (node_modules/.vite/vitest), a failed file first, a file never run before ahead of them all (its
// duration is unknown), then by size as vitest's own sequencer does. vitest's BaseSequencer sorts by project first
// ("projects run sequential"): every quick file started before any slow one, so the longest file of the suite
// (test/integration/readme.test.ts, ~420 s in a whole run) started only after ~250 s of quick files, and the run's
// last minutes had one worker busy while the others had nothing left. Longest first is the classic way to fill the
// workers evenly to the end.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const key = (f: TestSpecification) => `${f.project.name}:${relative(config.root, f.moduleId)}`;
    const rank = files.map((spec) => {
      const result = cache.getFileTestResults(key(spec));
      const size = cache.getFileStats(key(spec))?.size ?? 0;
      // never run: first (unknown could be the longest); failed: next, as vitest does; then longest first
      const group = !result ? 0 : result.failed ? 1 : 2;
      return { spec, group, duration: result?.duration ?? 0, size };
    });
    rank.sort((a, b) => a.group - b.group || b.duration - a.duration || b.size - a.size);
    return rank.map((r) => r.spec);
  }
}
