// The report views the cost model writes (npm run sql:generate, with the other generated files of generated-sql.ts):
// those whose columns are the model's families, so a family added to the model adds its column without a hand edit.
import { FAMILIES } from './cost-families.ts';
import { commentLines, MARK, quote, type GeneratedSqlFile } from './generated-sql-text.ts';

// the families side by side: a PIVOT that takes its columns from the data cannot be a view, so the model writes them
export function spendDailyByFamily(): GeneratedSqlFile {
  const columns = FAMILIES.map((f) => `        sum(amount) filter (where family = ${quote(f)}) as ${f},`);
  const text = `${commentLines(`One row per UTC day of rpt_spend_daily, all accounts together: one amount column per family in the order reports show families (null on days before the family's first cost), the total and whether the day is complete. What every report that shows families side by side reads; a family added to the model adds its column here.`)}

${MARK}
create or replace view rpt_spend_daily_by_family as
with daily as (
    select * from rpt_spend_daily
),

final as (
    select
        day,
${columns.join('\n')}
        sum(amount) as total,
        bool_and(is_complete) as is_complete,
    from daily
    group by day
)

select * from final;
`;
  return { path: 'views/reports/rpt_spend_daily_by_family.sql', text };
}
