#!lua flags=no-writes
-- probe-error-codes.lua: whether the server passes on the error code a script raises, which every refusal of
-- redis-record's scripts relies on ('RRTYPE ...', 'RRSEQ ...': typed errors on the client). connect() runs it
-- on every master before it writes anything, and again after each reconnection of its client
-- (src/connection/server-requirements.ts); it is not preloaded.
-- KEYS: none. ARGV: none.
-- Returns: nothing; it raises {err = 'RRPROBE ...'}. Redis 7.0 and later (and Valkey) reply with that error,
-- its code first. Redis 6.0 cannot compile the first line (script flags came with 7.0), and its error handler
-- fails on an error table ("attempt to concatenate local 'err' (a table value)"), so its scripts' refusals
-- reach the client as untyped script errors.
-- Guarantees: reads and writes nothing; `flags=no-writes` lets it run on a server out of memory too.
error({ err = 'RRPROBE scripts pass on the error codes they raise' })
