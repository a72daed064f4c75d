import type pg from 'pg';
import { closestName } from '../text/nearest-name.js';
import { ProjectNotFoundError, ProjectRateMismatchError } from './errors.js';
import { PG_SCHEMA, ensurePgSchema } from './postgres-schema.js';
import type { StoreUrl } from './postgres-url.js';

export interface ProjectRequest {
  /** Create the project (and annot's schema) when missing; false makes a missing project a ProjectNotFoundError. */
  readonly create: boolean;
  /** The rate a new project gets, and that an existing one must have when given. */
  readonly rate: number | undefined;
  /** The rate a new project gets when none is asked for. */
  readonly defaultRate: number;
}

/** A project's number (what every row is scoped by) and the rate it was created with. */
export interface OpenedProject {
  readonly pid: number;
  readonly rate: number;
}

const T = PG_SCHEMA;

/**
 * Finds the project a store URL names, creating it (and annot's schema in an empty database)
 * only when asked to. A read never creates anything: in a database without annot's schema, or
 * without that project, it is a ProjectNotFoundError naming the projects there are.
 */
export async function openProject(client: pg.ClientBase, target: Pick<StoreUrl, 'where' | 'project'>, request: ProjectRequest): Promise<OpenedProject> {
  const { where, project } = target;
  if (!request.create && !(await hasAnnotSchema(client))) {
    throw new ProjectNotFoundError(`${where}: no annot project "${project}": the database holds no annot projects (annot convert FILE 'URL?project=${project}' makes one)`);
  }
  await ensurePgSchema(client, where);
  if (request.create) {
    await client.query(`INSERT INTO ${T}.projects (name, rate) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [project, request.rate ?? request.defaultRate]);
  }
  const { rows } = await client.query<{ pid: number; rate: string }>(`SELECT pid, rate FROM ${T}.projects WHERE name = $1`, [project]);
  if (rows.length === 0) throw new ProjectNotFoundError(await missingProjectMessage(client, target));
  const stored = Number(rows[0].rate);
  if (request.rate !== undefined && request.rate !== stored) {
    throw new ProjectRateMismatchError(
      `${where}: project "${project}" was created with rate ${stored}, opened with rate ${request.rate}; ` +
        'a project keeps its rate: open it without a rate (or with that one), or use another project',
    );
  }
  return { pid: rows[0].pid, rate: stored };
}

async function hasAnnotSchema(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ meta: string | null }>(`SELECT to_regclass('${T}.meta')::text AS meta`);
  return rows[0].meta !== null;
}

/** `no project "typo"; did you mean "talks"? (projects: a, b, talks)`, the list cut short when long. */
async function missingProjectMessage(client: pg.ClientBase, { where, project }: Pick<StoreUrl, 'where' | 'project'>): Promise<string> {
  const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${T}.projects ORDER BY name`);
  const names = rows.map((row) => row.name);
  const near = closestName(project, names);
  const hint = near === undefined ? '' : `; did you mean "${near}"?`;
  const shown = names.length > 20 ? `${names.slice(0, 20).join(', ')}, … (${names.length} in all)` : names.join(', ');
  const list = names.length === 0 ? ' (the database holds no annot projects)' : ` (projects: ${shown})`;
  return `${where}: no annot project "${project}"${hint}${list}; reading never creates one (annot convert FILE 'URL?project=${project}' makes one)`;
}
