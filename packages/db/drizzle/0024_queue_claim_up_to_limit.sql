-- "Next" tops each technician up to a limit under a per-technician lock (decision 029).
-- The claim's count used to be `limit - working count`, the count read by an earlier statement outside any
-- lock: two "next" calls of one technician that did not share a batch (a double-click, two tabs, a retry, two
-- replicas, or any technician with a PSA member, who claims in a transaction of their own) both read 0 and
-- both claimed `limit`. Here each technician's lock is taken first (a transaction-level advisory lock, in key
-- order so two batches sharing technicians never deadlock), their claimed and working tickets are counted
-- under it, and queue_claim_batch (migration 0017, unchanged: the walk on queue_tickets_next_idx) claims only
-- what is missing. Under READ COMMITTED each query of this function takes a new snapshot, so the count sees
-- what the lock's previous holder committed. A technician given twice is counted once (the first wins).
-- Returns every ticket each technician holds after the claim (read under the lock, so a call that waited
-- answers what the other call claimed), is_new for the ones claimed now.
-- queue_claim_batch stays for servers of the previous release during a rolling restart (docs/operations.md §7).
CREATE OR REPLACE FUNCTION queue_claim_up_to_limit(p_msp_id uuid, p_tech_ids uuid[], p_tier_ranks integer[], p_limits integer[], p_now timestamptz)
RETURNS TABLE (ticket queue_tickets, is_new boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  lock_key integer;
  counts integer[];
  picked uuid[];
BEGIN
  FOR lock_key IN SELECT DISTINCT hashtext(x.id::text) FROM unnest(p_tech_ids) AS x(id) ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(hashtext('switchboard.queue_claim'), lock_key);
  END LOOP;
  SELECT coalesce(array_agg(
      CASE WHEN p_tech_ids[x.n] = ANY (p_tech_ids[1 : x.n - 1]) THEN 0
        ELSE greatest(coalesce(p_limits[x.n], 0) - (SELECT count(*)::int FROM queue_tickets q
          WHERE q.msp_id = p_msp_id AND q.assigned_tech_id = p_tech_ids[x.n] AND q.state IN ('claimed', 'working')), 0)
      END ORDER BY x.n), '{}')
    INTO counts FROM generate_subscripts(p_tech_ids, 1) AS x(n);
  SELECT coalesce(array_agg(c.id), '{}') INTO picked FROM queue_claim_batch(p_msp_id, p_tech_ids, p_tier_ranks, counts, p_now) AS c;
  RETURN QUERY
    SELECT q, q.id = ANY (picked) FROM queue_tickets q
    WHERE q.msp_id = p_msp_id AND q.assigned_tech_id = ANY (p_tech_ids) AND q.state IN ('claimed', 'working');
END
$$;
