import { LuaScript } from '../redis/lua-script.js';

// The Redis inbound queue's steps, each one Lua script (atomic, one round trip). Keys are built inside the scripts
// from a prefix, so this needs one Redis server (or a primary with replicas), not Redis Cluster.
//
//   <p>seq                      sequence counter (arrival order over the whole queue)
//   <p>id:<platform>:<id>       the platform's message id → sequence: dedupe; expires DEDUPE_TTL after the finish
//   <p>m:<seq>                  hash: body, platform, conversation, state (pending|answered), attempts, acceptedAt,
//                               live (the streamed answer's platform message id, once an attempt remembered it)
//   <p>c:<conversation>         sorted set of the conversation's unfinished sequences (its order)
//   <p>open                     sorted set: conversation → its oldest unfinished sequence
//   <p>pending:<platform>       sorted set: sequence → acceptedAt (depth and oldest age per platform)
//   <p>r:<seq>                  hash: reply index → the stored reply (JSON)
//   <p>p:<seq>:<index>          hash: part → sending|sent
//   <p>lease:<conversation>     the process that may work on the conversation now (PX expiry)
//   <p>wake                     stream: one entry per accepted message, read by the consumer group `workers`
//
// Every write made while answering (attempt, reply, part, live message, finish) first checks that this process still holds the
// conversation's lease: a process that lost it (paused past the lease, cut off from Redis) cannot send on behalf of
// the one that took over — at most the one send already in flight goes out twice.

const fence = `
local p = ARGV[1]
local conversation = ARGV[2]
if redis.call('GET', p .. 'lease:' .. conversation) ~= ARGV[3] then return redis.error_reply('SAENG_LEASE_LOST') end
`;

/** ARGV: prefix, platform, message id, conversation, body, mode (pending|done), now ms, dedupe ttl ms, stream length. */
export const acceptScript = new LuaScript(`
local p = ARGV[1]
local idKey = p .. 'id:' .. ARGV[2] .. ':' .. ARGV[3]
if redis.call('EXISTS', idKey) == 1 then return 0 end
local seq = redis.call('INCR', p .. 'seq')
if ARGV[6] == 'done' then
  redis.call('SET', idKey, seq, 'PX', ARGV[8])
  return seq
end
redis.call('SET', idKey, seq)
redis.call('HSET', p .. 'm:' .. seq, 'body', ARGV[5], 'platform', ARGV[2], 'conversation', ARGV[4], 'state', 'pending',
  'attempts', 0, 'acceptedAt', ARGV[7], 'idKey', idKey)
redis.call('ZADD', p .. 'c:' .. ARGV[4], seq, seq)
redis.call('ZADD', p .. 'open', 'NX', seq, ARGV[4])
redis.call('ZADD', p .. 'pending:' .. ARGV[2], ARGV[7], seq)
-- One wake in the line per conversation ('w': conversations with a wake not yet claimed): a conversation with many
-- new messages does not get many places in the line (the claim takes all its messages in order anyway).
if redis.call('SADD', p .. 'w', ARGV[4]) == 1 then
  redis.call('XADD', p .. 'wake', 'MAXLEN', '~', ARGV[9], '*', 'c', ARGV[4])
end
return seq
`);

/** ARGV: prefix, conversation. → false, or {sequence, body, state, live message id or ''}. */
export const nextScript = new LuaScript(`
local p = ARGV[1]
local first = redis.call('ZRANGE', p .. 'c:' .. ARGV[2], 0, 0)
if #first == 0 then return false end
local fields = redis.call('HMGET', p .. 'm:' .. first[1], 'body', 'state', 'live')
return {first[1], fields[1] or '', fields[2] or '', fields[3] or ''}
`);

/** ARGV: prefix, conversation, after sequence, limit. → flat {sequence, body, state, …} of the messages after it. */
export const followingScript = new LuaScript(`
local p = ARGV[1]
local later = redis.call('ZRANGEBYSCORE', p .. 'c:' .. ARGV[2], '(' .. ARGV[3], '+inf', 'LIMIT', 0, tonumber(ARGV[4]))
local out = {}
for _, seq in ipairs(later) do
  local fields = redis.call('HMGET', p .. 'm:' .. seq, 'body', 'state')
  out[#out + 1] = seq
  out[#out + 1] = fields[1] or ''
  out[#out + 1] = fields[2] or ''
end
return out
`);

/** ARGV: prefix, conversation, owner, sequence. → the attempt count. */
export const startAttemptScript = new LuaScript(`${fence}
return redis.call('HINCRBY', p .. 'm:' .. ARGV[4], 'attempts', 1)
`);

/** ARGV: prefix, conversation, owner, sequence, index, reply JSON, final (1|0). */
export const storeReplyScript = new LuaScript(`${fence}
redis.call('HSETNX', p .. 'r:' .. ARGV[4], ARGV[5], ARGV[6])
if ARGV[7] == '1' and redis.call('HGET', p .. 'm:' .. ARGV[4], 'state') == 'pending' then
  redis.call('HSET', p .. 'm:' .. ARGV[4], 'state', 'answered')
end
return 1
`);

/** ARGV: prefix, conversation, owner, sequence, index, part, state. */
export const markPartScript = new LuaScript(`${fence}
redis.call('HSET', p .. 'p:' .. ARGV[4] .. ':' .. ARGV[5], ARGV[6], ARGV[7])
return 1
`);

/**
 * ARGV: prefix, conversation, owner, sequence, handle. Overwrites; a finished message (its hash gone) is left alone,
 * so a late write cannot bring back a key nothing deletes. → 1 when stored, 0 when the message is gone.
 */
export const rememberLiveScript = new LuaScript(`${fence}
local m = p .. 'm:' .. ARGV[4]
if redis.call('EXISTS', m) == 0 then return 0 end
redis.call('HSET', m, 'live', ARGV[5])
return 1
`);

/**
 * Done or given up: the message leaves the conversation's order and the depth counts; only its id stays, for
 * dedupe, until the TTL. ARGV: prefix, conversation, owner, sequence, dedupe ttl ms.
 */
export const finishScript = new LuaScript(`${fence}
local seq = ARGV[4]
local m = p .. 'm:' .. seq
local fields = redis.call('HMGET', m, 'idKey', 'platform')
if fields[1] then redis.call('PEXPIRE', fields[1], ARGV[5]) end
if fields[2] then redis.call('ZREM', p .. 'pending:' .. fields[2], seq) end
for _, index in ipairs(redis.call('HKEYS', p .. 'r:' .. seq)) do redis.call('DEL', p .. 'p:' .. seq .. ':' .. index) end
redis.call('DEL', m, p .. 'r:' .. seq)
local c = p .. 'c:' .. conversation
redis.call('ZREM', c, seq)
local first = redis.call('ZRANGE', c, 0, 0)
if #first == 0 then redis.call('ZREM', p .. 'open', conversation) else redis.call('ZADD', p .. 'open', first[1], conversation) end
return 1
`);

/** ARGV: prefix, conversation, owner, lease ms. → 1 when this process holds the lease now (taken or already its). */
export const claimScript = new LuaScript(`
local key = ARGV[1] .. 'lease:' .. ARGV[2]
-- Its wake has been taken from the line: a message accepted from now on needs a new one.
redis.call('SREM', ARGV[1] .. 'w', ARGV[2])
if redis.call('SET', key, ARGV[3], 'NX', 'PX', ARGV[4]) then return 1 end
if redis.call('GET', key) == ARGV[3] then
  redis.call('PEXPIRE', key, ARGV[4])
  return 1
end
return 0
`);

/** ARGV: prefix, lease ms, owner, conversation… → for each, 1 when still held (expiry extended), else 0. */
export const renewScript = new LuaScript(`
local held = {}
for i = 4, #ARGV do
  local key = ARGV[1] .. 'lease:' .. ARGV[i]
  if redis.call('GET', key) == ARGV[3] then
    redis.call('PEXPIRE', key, ARGV[2])
    held[#held + 1] = 1
  else
    held[#held + 1] = 0
  end
end
return held
`);

/**
 * ARGV: prefix, conversation, owner, 'requeue' or '', stream length. → how many unfinished messages the conversation
 * has (0: nothing left). With 'requeue', unfinished messages get a new wake at the stream's end and 0 is returned:
 * the conversation waits behind the others for whichever process has room.
 */
export const releaseScript = new LuaScript(`
local key = ARGV[1] .. 'lease:' .. ARGV[2]
if redis.call('GET', key) == ARGV[3] then redis.call('DEL', key) end
local left = redis.call('ZCARD', ARGV[1] .. 'c:' .. ARGV[2])
if ARGV[4] == 'requeue' and left > 0 then
  if redis.call('SADD', ARGV[1] .. 'w', ARGV[2]) == 1 then
    redis.call('XADD', ARGV[1] .. 'wake', 'MAXLEN', '~', ARGV[5], '*', 'c', ARGV[2])
  end
  return 0
end
return left
`);

/** ARGV: prefix, platform… → flat {platform, pending, oldest acceptedAt or -1, …}. */
export const statsScript = new LuaScript(`
local out = {}
for i = 2, #ARGV do
  local key = ARGV[1] .. 'pending:' .. ARGV[i]
  local count = redis.call('ZCARD', key)
  if count > 0 then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    out[#out + 1] = ARGV[i]
    out[#out + 1] = count
    out[#out + 1] = oldest[2]
  end
end
return out
`);
