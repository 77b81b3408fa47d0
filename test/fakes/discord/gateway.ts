import type { IncomingMessage, Server } from 'node:http';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { isRecord } from '../../../src/shared/is-record.js';
import { randomHex } from './ids.js';

// The gateway on the REST server's port (`ws`, JSON, no compression): op 10 HELLO, op 1 → op 11, op 2 IDENTIFY
// (wrong token → close 4004, intents the portal has not enabled → close 4014), READY and the guilds' GUILD_CREATE;
// op 6 RESUME replays what the session missed, then RESUMED (an unknown session gets op 9 false). Dispatches are
// numbered by an increasing `s` per session. Sharded as Discord shards: each IDENTIFY's `shard` [id, count] is a
// connection of its own, READY and GUILD_CREATE name only that shard's guilds, and a dispatch goes to the shard that
// owns its guild_id ((guild_id >> 22) % count; no guild: shard 0). An id not below its count is closed with 4010.

export interface IdentifyRecord {
  intents: unknown;
  tokenMatched: boolean;
  properties: unknown;
  shard: unknown;
  compress: unknown;
}

export interface GatewayClose {
  code: number;
  reason: string;
  /** `client`: discord.js closed it; `fake`: the fake closed it (a refused identify, closeGateway). */
  by: 'client' | 'fake';
}

export interface GatewayHooks {
  token: string;
  heartbeatIntervalMs: number;
  disallowedIntents: number;
  /** READY's `d` without `session_id` and `resume_gateway_url`. */
  ready(shard: Shard): Record<string, unknown>;
  guildCreates(shard: Shard): Record<string, unknown>[];
}

/** [shard id, shard count], as IDENTIFY carries it. */
export type Shard = [number, number];

/** Discord's rule: the shard that receives a guild's events. */
export function shardOfGuild(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

function shardOf(given: unknown): Shard | undefined {
  if (given === undefined) return [0, 1];
  if (!Array.isArray(given) || given.length !== 2) return undefined;
  const [id, count] = given as unknown[];
  if (!Number.isInteger(id) || !Number.isInteger(count)) return undefined;
  const shard: Shard = [id as number, count as number];
  return shard[1] >= 1 && shard[0] >= 0 && shard[0] < shard[1] ? shard : undefined;
}

interface Session {
  id: string;
  shard: number;
  sequence: number;
  intents: number;
  frames: { sequence: number; text: string }[];
}

/** One shard's live connection, and its last identified session until discord.js closes it with 1000. */
interface ShardSlot {
  active?: Connection;
  resumable?: Session;
}

interface Connection {
  socket: WebSocket;
  query: URLSearchParams;
  session?: Session;
}

/**
 * performance.now() just before each dispatch's frame was handed to the socket, keyed by the dispatched `d` object
 * (e.g. the payload dispatchMessage resolves with): for benchmarks, which time in the same process.
 */
const frameWrittenTimes = new WeakMap<object, number>();

export function dispatchWrittenTime(data: object): number | undefined {
  return frameWrittenTimes.get(data);
}

type Waiter = { predicate: (close: GatewayClose) => boolean; resolve(close: GatewayClose): void };

export class FakeGateway {
  readonly identifies: IdentifyRecord[] = [];
  readonly closes: GatewayClose[] = [];
  /** Query strings of every connection, e.g. `v=10&encoding=json`. */
  readonly connectionQueries: string[] = [];
  readonly received: { op: unknown; d: unknown }[] = [];
  private readonly server: WebSocketServer;
  private readonly sessions = new Map<string, Session>();
  private readonly slots = new Map<number, ShardSlot>();
  private shardCount = 1;
  private closeWaiters: Waiter[] = [];
  private readonly closedByFake = new WeakSet<WebSocket>();

  constructor(
    httpServer: Server,
    private readonly resumeUrl: string,
    private readonly hooks: GatewayHooks,
  ) {
    this.server = new WebSocketServer({ server: httpServer });
    this.server.on('connection', (socket, request) => this.accept(socket, request));
  }

  /** The intents of the session that gets `guildId`'s events (or DMs); undefined before its IDENTIFY. */
  intents(guildId?: string): number | undefined {
    const slot = this.slotOf(guildId);
    return slot?.active?.session?.intents ?? slot?.resumable?.intents;
  }

  /** Sends one dispatch to the identified connection; resolves once the frame was written to the socket. */
  /**
   * Sends one dispatch to the identified connection; resolves once the frame was written to the socket. While a
   * resumable session is disconnected the event is kept for its RESUME (as Discord does) and this resolves at once.
   */
  dispatch(type: string, data: unknown): Promise<void> {
    const slot = this.slotOf(isRecord(data) && typeof data.guild_id === 'string' ? data.guild_id : undefined);
    const connection = slot?.active;
    if (connection?.session && connection.socket.readyState === WebSocket.OPEN) return this.dispatchOn(connection, connection.session, type, data);
    const resumable = slot?.resumable;
    if (!resumable) return Promise.reject(new Error('no identified gateway connection'));
    resumable.sequence += 1;
    resumable.frames.push({ sequence: resumable.sequence, text: JSON.stringify({ op: 0, t: type, s: resumable.sequence, d: data }) });
    return Promise.resolve();
  }

  /** The fake closes a live connection, shard 0's unless told (e.g. 4000 makes discord.js resume, 4004 give up). */
  closeConnection(code: number, reason = '', shard = 0): Promise<GatewayClose> {
    const closed = this.waitForClose((close) => close.by === 'fake' && close.code === code);
    this.refuse(this.slots.get(shard)?.active, code, reason);
    return closed;
  }

  waitForClose(predicate: (close: GatewayClose) => boolean = () => true): Promise<GatewayClose> {
    const found = this.closes.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.closeWaiters.push({ predicate, resolve }));
  }

  async close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: WebSocket, request: IncomingMessage): void {
    const query = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams;
    const connection: Connection = { socket, query };
    this.connectionQueries.push(query.toString());
    socket.on('close', (code, reason) =>
      this.recordClose({ code, reason: reason.toString(), by: this.closedByFake.has(socket) ? 'fake' : 'client' }, connection),
    );
    if (query.get('v') !== '10') return this.refuse(connection, 4012, 'Invalid API version');
    // This fake speaks plain JSON only; discord.js asks for zlib-stream only when zlib-sync is installed.
    if (query.get('encoding') !== 'json' || query.has('compress')) return this.refuse(connection, 4002, 'Error while decoding payload.');
    socket.on('message', (data) => this.receive(connection, data));
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.hooks.heartbeatIntervalMs }, s: null, t: null }));
  }

  private refuse(connection: Connection | undefined, code: number, reason: string): void {
    if (!connection || connection.socket.readyState !== WebSocket.OPEN) return;
    this.closedByFake.add(connection.socket);
    connection.socket.close(code, reason);
  }

  private slotOf(guildId: string | undefined): ShardSlot | undefined {
    return this.slots.get(guildId === undefined ? 0 : shardOfGuild(guildId, this.shardCount));
  }

  private slot(shard: number): ShardSlot {
    const slot = this.slots.get(shard) ?? {};
    this.slots.set(shard, slot);
    return slot;
  }

  private recordClose(close: GatewayClose, connection: Connection): void {
    const slot = connection.session ? this.slots.get(connection.session.shard) : undefined;
    if (slot?.active === connection) slot.active = undefined;
    if (slot && close.by === 'client' && close.code === 1000 && connection.session === slot.resumable) slot.resumable = undefined;
    this.closes.push(close);
    const matched = this.closeWaiters.filter((waiter) => waiter.predicate(close));
    this.closeWaiters = this.closeWaiters.filter((waiter) => !matched.includes(waiter));
    for (const waiter of matched) waiter.resolve(close);
  }

  private receive(connection: Connection, data: RawData): void {
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8')) as unknown;
    } catch {
      return this.refuse(connection, 4002, 'Error while decoding payload.');
    }
    if (!isRecord(payload)) return this.refuse(connection, 4002, 'Error while decoding payload.');
    this.received.push({ op: payload.op, d: payload.d });
    const d = isRecord(payload.d) ? payload.d : {};
    switch (payload.op) {
      case 1:
        return void connection.socket.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
      case 2:
        return this.identify(connection, d);
      case 6:
        return this.resume(connection, d);
      case 3:
      case 4:
      case 8:
        return connection.session ? undefined : this.refuse(connection, 4003, 'Not authenticated.');
      default:
        return this.refuse(connection, 4001, 'Unknown opcode.');
    }
  }

  private identify(connection: Connection, d: Record<string, unknown>): void {
    if (connection.session) return this.refuse(connection, 4005, 'Already authenticated.');
    const tokenMatched = d.token === this.hooks.token;
    this.identifies.push({ intents: d.intents, tokenMatched, properties: d.properties, shard: d.shard, compress: d.compress });
    if (!tokenMatched) return this.refuse(connection, 4004, 'Authentication failed.');
    if (typeof d.intents !== 'number' || !Number.isInteger(d.intents) || d.intents < 0) return this.refuse(connection, 4013, 'Invalid intent(s).');
    if ((d.intents & this.hooks.disallowedIntents) !== 0) return this.refuse(connection, 4014, 'Disallowed intent(s).');
    const shard = shardOf(d.shard);
    if (!shard) return this.refuse(connection, 4010, 'Invalid shard.');
    this.shardCount = shard[1];
    const session: Session = { id: randomHex(16), shard: shard[0], sequence: 0, intents: d.intents, frames: [] };
    this.sessions.set(session.id, session);
    connection.session = session;
    const slot = this.slot(shard[0]);
    slot.active = connection;
    slot.resumable = session;
    const ready = { ...this.hooks.ready(shard), session_id: session.id, resume_gateway_url: this.resumeUrl };
    void this.dispatchOn(connection, session, 'READY', ready).then(async () => {
      for (const guild of this.hooks.guildCreates(shard)) await this.dispatchOn(connection, session, 'GUILD_CREATE', guild);
    });
  }

  private resume(connection: Connection, d: Record<string, unknown>): void {
    const session = typeof d.session_id === 'string' ? this.sessions.get(d.session_id) : undefined;
    if (!session || d.token !== this.hooks.token) return void connection.socket.send(JSON.stringify({ op: 9, d: false, s: null, t: null }));
    connection.session = session;
    this.slot(session.shard).active = connection;
    const since = typeof d.seq === 'number' ? d.seq : 0;
    for (const frame of session.frames.filter((each) => each.sequence > since)) connection.socket.send(frame.text);
    void this.dispatchOn(connection, session, 'RESUMED', {});
  }

  private dispatchOn(connection: Connection, session: Session, type: string, data: unknown): Promise<void> {
    session.sequence += 1;
    const text = JSON.stringify({ op: 0, t: type, s: session.sequence, d: data });
    session.frames.push({ sequence: session.sequence, text });
    if (typeof data === 'object' && data !== null) frameWrittenTimes.set(data, performance.now());
    return new Promise((resolve, reject) => connection.socket.send(text, (error) => (error ? reject(error) : resolve())));
  }
}
