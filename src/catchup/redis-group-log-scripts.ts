import { LuaScript } from '../redis/lua-script.js';

// The Redis catch-up log's steps that read and then write, each one Lua script (atomic, one round trip): two
// processes appending at once never pass the bound nor lose an entry, and a reader never sees an entry half cut.
// Keys are built inside the scripts from a prefix (one Redis server, not Redis Cluster), as the reminders' are.
//
//   <p>t:<space>   sorted set: message id → at (the order: at, then message id — the same as SQLite's)
//   <p>e:<space>   hash: message id → body (the JSON of speakerKey, speaker, text, link)
//   <p>w:<space>   hash: message id → its member in <p>l (so a cut entry leaves the speaker index too)
//   <p>l:<space>   sorted set, all scores 0, by text: speaker key NUL at (16 digits) NUL message id, for "since my
//                  last message" in one range read (keys hold no NUL: group-log-store.ts refuses them)
//
// A space's four keys are named by its key alone: deleting or moving a space needs no KEYS or SCAN.

/** The space's keys; removes entries' bodies and speaker-index members (the caller removes them from <p>t). */
const prelude = `
local p = ARGV[1]
local function keysOf(space)
  return p .. 't:' .. space, p .. 'e:' .. space, p .. 'w:' .. space, p .. 'l:' .. space
end
local function forget(space, ids)
  local _, e, w, l = keysOf(space)
  for _, id in ipairs(ids) do
    local member = redis.call('HGET', w, id)
    if member then redis.call('ZREM', l, member) end
    redis.call('HDEL', e, id)
    redis.call('HDEL', w, id)
  end
end
local function keepBound(space, bound)
  local t = keysOf(space)
  local over = redis.call('ZCARD', t) - bound
  if over <= 0 then return end
  forget(space, redis.call('ZRANGE', t, 0, over - 1))
  redis.call('ZREMRANGEBYRANK', t, 0, over - 1)
end
`;

/** ARGV: prefix, space, message id, at, body, speaker-index member, per-space bound. → 1 when logged and kept, else 0. */
export const appendScript = new LuaScript(`${prelude}
local t, e, w, l = keysOf(ARGV[2])
if redis.call('HSETNX', e, ARGV[3], ARGV[5]) == 0 then return 0 end
redis.call('ZADD', t, ARGV[4], ARGV[3])
redis.call('HSET', w, ARGV[3], ARGV[6])
redis.call('ZADD', l, 0, ARGV[6])
keepBound(ARGV[2], tonumber(ARGV[7]))
if redis.call('ZSCORE', t, ARGV[3]) then return 1 end
return 0
`);

/** ARGV: prefix, space, from, to, limit. → {{message id, at, body}, …}, newest first; a lost body reads as ''. */
export const readScript = new LuaScript(`${prelude}
local t, e = keysOf(ARGV[2])
local found = redis.call('ZREVRANGEBYSCORE', t, '(' .. ARGV[4], ARGV[3], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[5]))
local out = {}
for i = 1, #found, 2 do
  out[#out + 1] = {found[i], found[i + 1], redis.call('HGET', e, found[i]) or ''}
end
return out
`);

/** ARGV: prefix, space, speaker key, before (16 digits). → the speaker's latest index member before it, or ''. */
export const lastSaidScript = new LuaScript(`${prelude}
local _, _, _, l = keysOf(ARGV[2])
local speaker = ARGV[3] .. '\\0'
local found = redis.call('ZREVRANGEBYLEX', l, '(' .. speaker .. ARGV[4], '[' .. speaker, 'LIMIT', 0, 1)
return found[1] or ''
`);

/** ARGV: prefix, space, before. → how many entries said before it were deleted. */
export const pruneScript = new LuaScript(`${prelude}
local t = keysOf(ARGV[2])
local ids = redis.call('ZRANGEBYSCORE', t, '-inf', '(' .. ARGV[3])
forget(ARGV[2], ids)
redis.call('ZREMRANGEBYSCORE', t, '-inf', '(' .. ARGV[3])
return #ids
`);

/** ARGV: prefix, space. → how many entries were deleted. */
export const deleteSpaceScript = new LuaScript(`${prelude}
local t, e, w, l = keysOf(ARGV[2])
local count = redis.call('ZCARD', t)
redis.call('DEL', t, e, w, l)
return count
`);

/**
 * ARGV: prefix, from space, to space, per-space bound. An entry the new space has under the same message id is
 * newer and stays; the moved one is dropped with the old space's keys.
 */
export const moveScript = new LuaScript(`${prelude}
local ft, fe, fw, fl = keysOf(ARGV[2])
local tt, te, tw, tl = keysOf(ARGV[3])
local list = redis.call('ZRANGE', ft, 0, -1, 'WITHSCORES')
local moved = 0
for i = 1, #list, 2 do
  local id = list[i]
  local body = redis.call('HGET', fe, id)
  if body and redis.call('HEXISTS', te, id) == 0 then
    redis.call('HSET', te, id, body)
    redis.call('ZADD', tt, list[i + 1], id)
    local member = redis.call('HGET', fw, id)
    if member then
      redis.call('HSET', tw, id, member)
      redis.call('ZADD', tl, 0, member)
    end
    moved = moved + 1
  end
end
redis.call('DEL', ft, fe, fw, fl)
if moved > 0 then keepBound(ARGV[3], tonumber(ARGV[4])) end
return moved
`);
