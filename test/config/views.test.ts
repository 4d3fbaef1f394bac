// The config's saved views (src/config/views.ts): each mistake a user can make in `views` is refused at load in one
// line that names the view, the key and what is accepted – the explorer's own words (src/model/explore-vocabulary.ts).
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { ConfigError } from '../../src/util/errors.ts';

const allocation = {
  categories: { team: { rules: [{ value: 'imaging', match: { endpoint: 'sdxl-*' } }, { value: 'platform', match: { family: 'storage' } }, { value: 'research', match: { family: 'cluster' } }], split: [{ from: 'platform', to: ['imaging', 'research'] }] } },
};
const base = { name: 'imaging-90d', title: 'Imaging, 90 days', range: '90d', granularity: 'week', by: ['endpoint'], filters: [{ dimension: 'category:team', value: 'imaging' }] };

/** The refusal of a config with these views, as the user reads it. */
function refusal(views: unknown[]): string {
  try {
    parseConfig({ allocation, views }, 'test.json');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    const message = (e as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    return message;
  }
  throw new Error('the config was accepted');
}

describe('config views', () => {
  it('accepts a view in the explorer\'s words, with its defaults (month to date by family, per day, cost)', () => {
    const config = parseConfig({ allocation, views: [base, { name: 'mtd', title: 'This month' }, { name: 'gpu', title: 'GPU', range: { from: '2026-01-01', to: '2026-03-31' }, by: ['gpu_type', 'family'], metric: 'gpu_hours' }] }, 'test.json');
    expect(config.views.map((v) => v.name)).toEqual(['imaging-90d', 'mtd', 'gpu']);
    expect(config.views[1]).toMatchObject({ range: 'mtd', granularity: 'day', by: ['family'], filters: [], metric: 'cost' });
    expect(config.views[0]!.filters[0]).toEqual({ dimension: 'category:team', value: 'imaging', exclude: false });
  });

  it('accepts a schedule job that emails a view', () => {
    const config = parseConfig({ allocation, views: [base], schedule: { jobs: [{ name: 'imaging-weekly', cron: '0 7 * * 1', command: 'report', args: ['--view', 'imaging-90d', '--email'] }] } }, 'test.json');
    expect(config.schedule.jobs[0]!.args).toEqual(['--view', 'imaging-90d', '--email']);
  });

  it('refuses an unknown dimension in by, naming the view and the dimensions accepted', () => {
    expect(refusal([{ ...base, by: ['team'] }])).toMatch(/^config test\.json: views\.1: view 'imaging-90d': by 'team' is not a dimension: use family, template, endpoint, gpu_type, resource, account, component or category:<name>$/);
  });

  it('refuses an unknown filter dimension', () => {
    expect(refusal([{ ...base, filters: [{ dimension: 'pod', value: 'x' }] }])).toMatch(/view 'imaging-90d': filter dimension 'pod' is not a dimension: use family, .* or category:<name>$/);
  });

  it('refuses a family or a component src/model does not declare, listing the ones it does', () => {
    expect(refusal([{ ...base, filters: [{ dimension: 'family', value: 'pods' }] }])).toMatch(/view 'imaging-90d': filter family value 'pods' is not a family: use pod, serverless, storage, public_endpoint, cluster$/);
    expect(refusal([{ ...base, filters: [{ dimension: 'component', value: 'GPU', exclude: true }] }])).toMatch(/view 'imaging-90d': filter component value 'GPU' is not a component: use gpu, cpu, disk, .*usage$/);
  });

  it('refuses a category that is not in allocation.categories, listing the ones that are', () => {
    expect(refusal([{ ...base, by: ['category:project'], filters: [] }])).toMatch(/view 'imaging-90d': category 'project' is not in allocation\.categories \(category:team\)$/);
  });

  it('refuses a category value that no rule, split or default gives, listing the values', () => {
    expect(refusal([{ ...base, filters: [{ dimension: 'category:team', value: 'imagin' }] }])).toMatch(
      /view 'imaging-90d': filter category:team value 'imagin' is given by no rule of category 'team' \(its values: imaging, platform, research, unallocated\)$/,
    );
  });

  it('refuses two views of one name', () => {
    expect(refusal([base, { ...base, title: 'again' }])).toMatch(/view 'imaging-90d' is given twice: view names must be unique/);
  });

  it('refuses a name that is not a slug', () => {
    expect(refusal([{ ...base, name: 'Imaging 90d' }])).toMatch(/view 'Imaging 90d': name is not a slug: use lowercase letters, digits and "-"/);
  });

  it('refuses a range, granularity, metric or grouping the explorer does not take', () => {
    expect(refusal([{ ...base, range: '14d' }])).toMatch(/view 'imaging-90d': range '14d' is not a preset: use mtd, last-month, 7d, 30d, 90d, ytd or/);
    expect(refusal([{ ...base, range: { from: '2026-02-30', to: '2026-03-01' } }])).toMatch(/view 'imaging-90d': range\.from/);
    expect(refusal([{ ...base, granularity: 'hour' }])).toMatch(/view 'imaging-90d': granularity 'hour' is not one of day, week, month$/);
    expect(refusal([{ ...base, metric: 'dollars' }])).toMatch(/view 'imaging-90d': metric 'dollars' is not one of cost, gpu_hours$/);
    expect(refusal([{ ...base, by: ['endpoint', 'endpoint'] }])).toMatch(/by 'endpoint' is given twice/);
    expect(refusal([{ ...base, by: ['family', 'template', 'endpoint'] }])).toMatch(/by has 3 groupings; give one or two/);
  });
});
