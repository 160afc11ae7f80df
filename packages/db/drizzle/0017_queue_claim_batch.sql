-- The technician queue's claim for many technicians in one call (issue #10; bench/queue.bench.ts; decision 029).
-- "Next" calls of one MSP that arrive together are sent as ONE statement: this function loops the
-- single-technician claim, one technician after the other, inside that statement. Each pass sees what
-- the passes before it claimed (a new command of the same transaction), so no ticket is given twice,
-- which a single FOR UPDATE SKIP LOCKED over all of them could not promise; tickets other sessions hold
-- are skipped, never waited on. Eligibility is the same as the listing's (queue.repository.ts
-- eligibleFor): own tier and lower, not on hold, not reserved for someone else, not handed back by this
-- technician within the cooldown. Order: own tier first, then rank key (queue_tickets_next_idx).
-- Returns the rows claimed, as updated; a count of 0 or less claims nothing for that technician.
CREATE OR REPLACE FUNCTION queue_claim_batch(p_msp_id uuid, p_tech_ids uuid[], p_tier_ranks integer[], p_counts integer[], p_now timestamptz)
RETURNS SETOF queue_tickets
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  i integer;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_tech_ids, 1), 0) LOOP
    CONTINUE WHEN coalesce(p_counts[i], 0) <= 0;
    RETURN QUERY
      WITH picked AS (
        SELECT q.id FROM queue_tickets q
        WHERE q.msp_id = p_msp_id AND q.state = 'queued' AND q.tier_rank <= p_tier_ranks[i]
          AND (q.hold_until IS NULL OR q.hold_until <= p_now)
          AND (NOT q.is_reserved OR q.assigned_tech_id = p_tech_ids[i])
          AND NOT EXISTS (SELECT 1 FROM queue_rejections r
            WHERE r.msp_id = q.msp_id AND r.queue_ticket_id = q.id AND r.tech_id = p_tech_ids[i] AND r.until > p_now)
        ORDER BY q.tier_rank DESC, q.rank_key DESC
        LIMIT p_counts[i]
        FOR UPDATE OF q SKIP LOCKED
      ), claimed AS (
        UPDATE queue_tickets q SET state = 'claimed', assigned_tech_id = p_tech_ids[i], claimed_at = p_now,
          is_reserved = false, hold_until = NULL, updated_at = p_now
        FROM picked WHERE q.msp_id = p_msp_id AND q.id = picked.id
        RETURNING q.*
      ), events AS (
        INSERT INTO queue_events (msp_id, queue_ticket_id, tech_id, kind, at)
        SELECT c.msp_id, c.id, p_tech_ids[i], 'claimed', p_now FROM claimed c
      )
      SELECT * FROM claimed;
  END LOOP;
END
$$;
