import { LuaScript } from '../redis/lua-script.js';

// The Redis reminder store's steps that read and then write, each one Lua script (atomic, one round trip). Keys are
// built inside the scripts from a prefix (one Redis server, not Redis Cluster), as the inbound queue's are.
//
//   <p>due            sorted set: id → when it may be claimed next (its due time, or while claimed its lease's expiry)
//   <p>r:<id>         hash: space, number, user, due, body (the JSON of the fields that never change), sent (parts
//                     of this occurrence, '1,2'), lease (the token of the claim holding it, '' when free)
//   <p>s:<space>      hash: number → id (the space's reminders, for the numbers, the limits and /remind list)
//
// A reminder's lease is fenced by its token alone: a claim of an expired lease writes a new one, so the old claimer's
// writes find another token and change nothing.

/** Reads a reminder as {id, space, number, due, body, sent} onto `out`; deletes one with its index entry. */
const prelude = `
local p = ARGV[1]
local function push(out, id)
  local f = redis.call('HMGET', p .. 'r:' .. id, 'space', 'number', 'due', 'body', 'sent')
  out[#out + 1] = id
  for i = 1, 5 do out[#out + 1] = f[i] or '' end
end
local function remove(id)
  local r = p .. 'r:' .. id
  local f = redis.call('HMGET', r, 'space', 'number')
  if f[1] and f[2] and redis.call('HGET', p .. 's:' .. f[1], f[2]) == id then redis.call('HDEL', p .. 's:' .. f[1], f[2]) end
  redis.call('DEL', r)
  redis.call('ZREM', p .. 'due', id)
end
local function held(id, token)
  return token ~= '' and redis.call('HGET', p .. 'r:' .. id, 'lease') == token
end
`;

/**
 * ARGV: prefix, id, space, user, due, body, per space, per user, capacity. → the new number, -1 (space or store
 * full) or -2 (the user's limit). An index entry whose reminder is gone is removed on the way.
 */
export const addScript = new LuaScript(`${prelude}
if redis.call('ZCARD', p .. 'due') >= tonumber(ARGV[9]) then return -1 end
local s = p .. 's:' .. ARGV[3]
local index = redis.call('HGETALL', s)
local taken, live, mine = {}, 0, 0
for i = 1, #index, 2 do
  local user = redis.call('HGET', p .. 'r:' .. index[i + 1], 'user')
  if user then
    taken[index[i]] = true
    live = live + 1
    if user == ARGV[4] then mine = mine + 1 end
  else
    redis.call('HDEL', s, index[i])
  end
end
if live >= tonumber(ARGV[7]) then return -1 end
if mine >= tonumber(ARGV[8]) then return -2 end
local number = 1
while taken[tostring(number)] do number = number + 1 end
redis.call('HSET', p .. 'r:' .. ARGV[2], 'space', ARGV[3], 'number', number, 'user', ARGV[4], 'due', ARGV[5], 'body', ARGV[6],
  'sent', '', 'lease', '')
redis.call('ZADD', p .. 'due', ARGV[5], ARGV[2])
redis.call('HSET', s, number, ARGV[2])
return number
`);

/** ARGV: prefix, space. → flat {id, space, number, due, body, sent, …}. */
export const listScript = new LuaScript(`${prelude}
local out = {}
for _, id in ipairs(redis.call('HVALS', p .. 's:' .. ARGV[2])) do push(out, id) end
return out
`);

/** ARGV: prefix, space, number. → {id, space, number, due, body, sent} of the removed one, or {}. */
export const cancelScript = new LuaScript(`${prelude}
local s = p .. 's:' .. ARGV[2]
local id = redis.call('HGET', s, ARGV[3])
if not id then return {} end
local out = {}
push(out, id)
remove(id)
redis.call('HDEL', s, ARGV[3])
return out
`);

/**
 * ARGV: prefix, now, lease expiry, max, token base. → flat {id, space, number, due, body, sent, token, …}: each one
 * gets token base .. ':' .. i, and its place in <p>due moves to the expiry. An id whose hash is gone leaves <p>due.
 */
export const claimScript = new LuaScript(`${prelude}
local out = {}
local ids = redis.call('ZRANGEBYSCORE', p .. 'due', '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[4]))
for i, id in ipairs(ids) do
  local r = p .. 'r:' .. id
  if redis.call('EXISTS', r) == 1 then
    local token = ARGV[5] .. ':' .. i
    redis.call('HSET', r, 'lease', token)
    redis.call('ZADD', p .. 'due', ARGV[3], id)
    push(out, id)
    out[#out + 1] = token
  else
    redis.call('ZREM', p .. 'due', id)
  end
end
return out
`);

/** ARGV: prefix, id, token, lease expiry. → 1 when the claim still holds it (extended), else 0. */
export const renewScript = new LuaScript(`${prelude}
if not held(ARGV[2], ARGV[3]) then return 0 end
redis.call('ZADD', p .. 'due', ARGV[4], ARGV[2])
return 1
`);

/** ARGV: prefix, id, token, part. → 1 when recorded (or already), 0 when the lease was lost. */
export const markPartScript = new LuaScript(`${prelude}
if not held(ARGV[2], ARGV[3]) then return 0 end
local r = p .. 'r:' .. ARGV[2]
local sent = redis.call('HGET', r, 'sent') or ''
for part in string.gmatch(sent, '[^,]+') do
  if part == ARGV[4] then return 1 end
end
if sent == '' then sent = ARGV[4] else sent = sent .. ',' .. ARGV[4] end
redis.call('HSET', r, 'sent', sent)
return 1
`);

/** ARGV: prefix, id, token, next due time or '' (delete). → 1 when done, 0 when the lease was lost. */
export const completeScript = new LuaScript(`${prelude}
if not held(ARGV[2], ARGV[3]) then return 0 end
if ARGV[4] == '' then
  remove(ARGV[2])
  return 1
end
redis.call('HSET', p .. 'r:' .. ARGV[2], 'due', ARGV[4], 'sent', '', 'lease', '')
redis.call('ZADD', p .. 'due', ARGV[4], ARGV[2])
return 1
`);

/** ARGV: prefix, from space, to space. Numbers kept where free in the new space, lowest first; the rest take the smallest free. */
export const moveScript = new LuaScript(`${prelude}
local fromKey = p .. 's:' .. ARGV[2]
local toKey = p .. 's:' .. ARGV[3]
local index = redis.call('HGETALL', fromKey)
local entries = {}
for i = 1, #index, 2 do entries[#entries + 1] = {tonumber(index[i]) or 0, index[i + 1]} end
table.sort(entries, function(a, b) return a[1] < b[1] end)
local taken = {}
for _, number in ipairs(redis.call('HKEYS', toKey)) do taken[number] = true end
for _, entry in ipairs(entries) do
  local r = p .. 'r:' .. entry[2]
  if redis.call('EXISTS', r) == 1 then
    local number = tostring(entry[1])
    if entry[1] < 1 or taken[number] then
      local free = 1
      while taken[tostring(free)] do free = free + 1 end
      number = tostring(free)
    end
    taken[number] = true
    redis.call('HSET', toKey, number, entry[2])
    redis.call('HSET', r, 'space', ARGV[3], 'number', number)
  end
end
redis.call('DEL', fromKey)
return 1
`);
