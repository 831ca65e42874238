import { ScriptedConnection } from './scripted-sql';
import { selectCount, selectRow, selectRows } from './spec-sql';

describe('selectRows, selectRow, selectCount', () => {
  it('send the statement and its values as written, and answer the rows', async () => {
    const db = new ScriptedConnection([[{ id: 'a' }, { id: 'b' }]]);
    expect(await selectRows(db, 'SELECT id FROM t WHERE p = $1', ['x'])).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(db.sent).toEqual([{ text: 'SELECT id FROM t WHERE p = $1', values: ['x'] }]);
  });

  it('selectRow answers the one row, and refuses none or several', async () => {
    const db = new ScriptedConnection([[{ id: 'a' }], [], [{ id: 'a' }, { id: 'b' }]]);
    expect(await selectRow(db, 'SELECT id FROM t')).toEqual({ id: 'a' });
    await expect(selectRow(db, 'SELECT id FROM t')).rejects.toThrow('expected one row, got 0: SELECT id FROM t');
    await expect(selectRow(db, 'SELECT id FROM t')).rejects.toThrow('expected one row, got 2');
  });

  it("selectCount answers count(*) (pg's bigint string) as a number", async () => {
    expect(await selectCount(new ScriptedConnection([[{ count: '42' }]]), 'SELECT count(*) FROM t')).toBe(42);
  });
});
