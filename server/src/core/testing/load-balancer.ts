import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { repoPath } from '../paths.ts';
import { freePort } from './free-port.ts';

/**
 * The committed load-balancer configurations (deploy/nginx/understudy.conf and
 * deploy/haproxy/understudy.cfg, docs/deployment.md "Load balancer") run as unprivileged
 * foreground processes on a free loopback port, in front of instances the caller started.
 *
 * The committed file stays the single source: rendering replaces only the upstream servers'
 * addresses and the listen address, and fails when the file no longer has the lines it replaces.
 * Everything a test run needs besides (temporary directories, the pid file, logs to stderr) goes in
 * a wrapper around it (nginx) or on the command line.
 *
 * Both programs come from Debian (scripts/ensure-nginx.sh); callers skip with the reason
 * `nginxUnavailable()` / `haproxyUnavailable()` give when one is not installed.
 */

export const NGINX_CONFIG = repoPath('deploy', 'nginx', 'understudy.conf');
export const HAPROXY_CONFIG = repoPath('deploy', 'haproxy', 'understudy.cfg');

export interface RunningLoadBalancer {
  /** `http://127.0.0.1:<port>`: where clients connect. */
  readonly url: string;
  readonly port: number;
  /** What the process wrote to stdout and stderr so far (nginx's error log, HAProxy's alerts). */
  output(): string;
  /** Stops the process (SIGTERM, then SIGKILL after 5 s) and removes its directory. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The loopback ports of the instances, in the order of the configuration's `server` lines. */
  upstreams: number[];
  /**
   * Changes the committed text before it is rendered, for tests that run a variant of it (a
   * setting the documentation warns against, for one).
   */
  edit?: (text: string) => string;
}

// Debian installs both in /usr/sbin, which a non-root PATH often lacks.
function findProgram(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {}
  }
  return null;
}

/** Why the nginx tests cannot run here, or false when they can. */
export function nginxUnavailable(): string | false {
  return findProgram('nginx') ? false : 'nginx unavailable (scripts/ensure-nginx.sh installs it)';
}

/** Why the HAProxy tests cannot run here, or false when they can. */
export function haproxyUnavailable(): string | false {
  return findProgram('haproxy') ? false : 'haproxy unavailable (scripts/ensure-nginx.sh installs it)';
}

function replaceOnce(text: string, pattern: RegExp, replacement: string, what: string): string {
  const matches = text.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`)) ?? [];
  if (matches.length !== 1)
    throw new Error(`expected one ${what} in the configuration, found ${matches.length}`);
  return text.replace(pattern, replacement);
}

/** Replaces the address of each `server` line in `block` (in order) with a loopback port. */
function replaceServers(block: string, upstreams: number[], what: string): string {
  let index = 0;
  const replaced = block.replace(/^(\s*server\s+)(?:(\S+)\s+)?(\S+:\d+)\b/gm, (_line, head, name) => {
    const port = upstreams[index++];
    return `${head}${name ? `${name} ` : ''}127.0.0.1:${port}`;
  });
  if (index !== upstreams.length)
    throw new Error(`${what} has ${index} server lines; ${upstreams.length} upstream ports were given`);
  return replaced;
}

/**
 * deploy/nginx/understudy.conf with the `upstream understudy_api` servers on the given loopback
 * ports and the `listen` address on 127.0.0.1:`port`; nothing else changes.
 */
export function renderNginxConfig(text: string, options: { port: number; upstreams: number[] }): string {
  const upstream = /^upstream understudy_api \{$[\s\S]*?^\}$/m;
  const block = text.match(upstream)?.[0];
  if (!block) throw new Error('no `upstream understudy_api { … }` block in the nginx configuration');
  const rendered = text.replace(
    upstream,
    replaceServers(block, options.upstreams, 'upstream understudy_api'),
  );
  return replaceOnce(rendered, /^(\s*)listen\s+[^;]+;/m, `$1listen 127.0.0.1:${options.port};`, '`listen`');
}

/**
 * deploy/haproxy/understudy.cfg with the `server` lines on the given loopback ports and the `bind`
 * address on 127.0.0.1:`port`; nothing else changes.
 */
export function renderHaproxyConfig(text: string, options: { port: number; upstreams: number[] }): string {
  const rendered = replaceServers(text, options.upstreams, 'the HAProxy configuration');
  return replaceOnce(rendered, /^(\s*)bind\s+\S+/m, `$1bind 127.0.0.1:${options.port}`, '`bind`');
}

/** Resolves once something accepts connections on the port; rejects when the process exits first. */
async function listening(
  child: ChildProcess,
  port: number,
  output: () => string,
  what: string,
): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} is not listening on ${port}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function run(
  what: string,
  program: string,
  args: string[],
  port: number,
  dir: string,
): Promise<RunningLoadBalancer> {
  const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', (error) => {
    output += `${error}\n`;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await listening(child, port, () => output, what);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, port, output: () => output, stop };
}

/**
 * nginx in the foreground with deploy/nginx/understudy.conf in front of `upstreams`. The
 * committed file is included, as the stock nginx.conf includes conf.d/*.conf, from a main
 * configuration that holds only what a test run needs: one worker, temporary paths in a directory
 * of its own, the access log off, errors to stderr (`output()`).
 */
export async function startNginx(options: StartOptions): Promise<RunningLoadBalancer> {
  const nginx = findProgram('nginx');
  if (!nginx) throw new Error('nginx unavailable');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'understudy-nginx-'));
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs']) mkdirSync(join(dir, sub));
  const text = readFileSync(NGINX_CONFIG, 'utf8');
  writeFileSync(
    join(dir, 'understudy.conf'),
    renderNginxConfig(options.edit ? options.edit(text) : text, { port, upstreams: options.upstreams }),
  );
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      // Run as root (a container's test run), the workers would otherwise be `nobody`, shut out
      // of the temporary directory; otherwise nginx runs as whoever started it.
      process.getuid?.() === 0 ? 'user root;' : '',
      'worker_processes 1;',
      'events { worker_connections 512; }',
      'http {',
      `  client_body_temp_path ${join(dir, 'client_body')};`,
      `  proxy_temp_path ${join(dir, 'proxy')};`,
      `  fastcgi_temp_path ${join(dir, 'fastcgi')};`,
      `  uwsgi_temp_path ${join(dir, 'uwsgi')};`,
      `  scgi_temp_path ${join(dir, 'scgi')};`,
      '  access_log off;',
      `  include ${join(dir, 'understudy.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  return run(
    'nginx',
    nginx,
    [
      '-p',
      dir,
      '-c',
      join(dir, 'nginx.conf'),
      // Errors go to stderr from the start, before the configuration is read (nginx ≥ 1.19.5).
      '-e',
      'stderr',
      '-g',
      `daemon off; pid ${join(dir, 'nginx.pid')}; error_log stderr warn;`,
    ],
    port,
    dir,
  );
}

/** `haproxy -c` on a configuration file: null when it is valid, else what HAProxy said. */
export function checkHaproxyConfig(path: string = HAPROXY_CONFIG): string | null {
  const haproxy = findProgram('haproxy');
  if (!haproxy) throw new Error('haproxy unavailable');
  const result = spawnSync(haproxy, ['-c', '-f', path], { encoding: 'utf8' });
  return result.status === 0 ? null : `${result.stdout}${result.stderr}`;
}

/** HAProxy in the foreground (`-db`) with deploy/haproxy/understudy.cfg in front of `upstreams`. */
export async function startHaproxy(options: StartOptions): Promise<RunningLoadBalancer> {
  const haproxy = findProgram('haproxy');
  if (!haproxy) throw new Error('haproxy unavailable');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'understudy-haproxy-'));
  const text = readFileSync(HAPROXY_CONFIG, 'utf8');
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    renderHaproxyConfig(options.edit ? options.edit(text) : text, { port, upstreams: options.upstreams }),
  );
  return run('haproxy', haproxy, ['-db', '-f', config], port, dir);
}
