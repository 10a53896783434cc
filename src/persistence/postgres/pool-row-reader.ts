/** Hot reads on the PostgreSQL pool: the shared `?` SQL, numbered once per statement text. */
import type { DataSource } from 'typeorm';
import type { RowReader } from '../typeorm/row-reader';
import { toPositionalPlaceholders } from '../typeorm/sql-dialect';

export class PoolRowReader implements RowReader {
  private readonly numbered = new Map<string, string>();

  constructor(private readonly dataSource: DataSource) {}

  async all<Row>(sql: string, parameters: readonly unknown[]): Promise<Row[]> {
    let text = this.numbered.get(sql);
    if (text === undefined) {
      text = toPositionalPlaceholders(sql);
      this.numbered.set(sql, text);
    }
    const rows: unknown = await this.dataSource.query(text, [...parameters]);
    return rows as Row[];
  }
}
