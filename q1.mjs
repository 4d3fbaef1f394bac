import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(process.argv[2], { access_mode: 'READ_ONLY', threads: '1' });
const c = await inst.connect();
await c.run("SET TimeZone='UTC'");
for (const sql of process.argv.slice(3)) {
  let best = Infinity;
  for (let i=0;i<3;i++){ const u=process.cpuUsage(); const r = await c.runAndReadAll(sql); r.getRowObjectsJson(); const d=process.cpuUsage(u); best=Math.min(best,(d.user+d.system)/1000); }
  console.log(best.toFixed(0), 'ms cpu', sql.slice(0,70));
}
