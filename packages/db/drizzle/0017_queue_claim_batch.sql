-- The technician queue's claim for many technicians in one call (issue #10; bench/queue.bench.ts; decision 029).
-- "Next" calls of one MSP that arrive together are sent as ONE statement. The result is what claiming
-- for one technician after the other would give (highest tier first, then in the order given), but the
-- queue is walked once per tier among them, from that tier's top: each row goes to the first technician
-- of that tier still wanting tickets for whom it is eligible. (One walk per technician would re-read, for
-- the k-th technician, every row the k-1 before it just took.)
-- The walk does not lock: a row is locked only when it is taken, FOR UPDATE SKIP LOCKED with its
-- eligibility checked again, so a row another session holds is skipped, never waited on, and no ticket
-- is given twice. Eligibility is the same as the listing's (queue.repository.ts eligibleFor: change
-- both): own tier and lower, not on hold, not reserved for someone else, not handed back by this
-- technician within the cooldown. Order: own tier first, then rank key (queue_tickets_next_idx).
-- Returns the rows claimed, as updated; a count of 0 or less claims nothing for that technician.
CREATE OR REPLACE FUNCTION queue_claim_batch(p_msp_id uuid, p_tech_ids uuid[], p_tier_ranks integer[], p_counts integer[], p_now timestamptz)
RETURNS SETOF queue_tickets
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  tech_count integer := coalesce(array_length(p_tech_ids, 1), 0);
  wanted integer[] := '{}';
  members integer[];
  member_count integer;
  group_wanted integer;
  first_wanting integer;
  walk_rank integer;
  rejected_tickets uuid[];
  rejected_techs uuid[];
  picked_ids uuid[] := '{}';
  picked_techs uuid[] := '{}';
  candidate record;
  -- An explicit cursor is planned for its first rows (the index walk); a FOR loop over a query would be
  -- planned for all of them (a sort of the whole queue once the plan is generic).
  walk refcursor;
  locked_id uuid;
  i integer;
  k integer;
BEGIN
  FOR i IN 1 .. tech_count LOOP
    wanted[i] := greatest(coalesce(p_counts[i], 0), 0);
  END LOOP;
  SELECT coalesce(array_agg(r.queue_ticket_id), '{}'), coalesce(array_agg(r.tech_id), '{}') INTO rejected_tickets, rejected_techs
    FROM queue_rejections r WHERE r.msp_id = p_msp_id AND r.tech_id = ANY (p_tech_ids) AND r.until > p_now;
  -- One walk per tier rank among the technicians wanting tickets, highest first.
  FOR walk_rank IN SELECT DISTINCT x.rank FROM unnest(p_tier_ranks, wanted) AS x(rank, count) WHERE x.count > 0 ORDER BY x.rank DESC LOOP
    SELECT array_agg(x.n ORDER BY x.n), sum(wanted[x.n]) INTO members, group_wanted
      FROM generate_subscripts(p_tech_ids, 1) AS x(n) WHERE p_tier_ranks[x.n] = walk_rank AND wanted[x.n] > 0;
    member_count := array_length(members, 1);
    first_wanting := 1;
    OPEN walk NO SCROLL FOR
      SELECT q.id, q.is_reserved, q.assigned_tech_id FROM queue_tickets q
      WHERE q.msp_id = p_msp_id AND q.state = 'queued' AND q.tier_rank <= walk_rank AND (q.hold_until IS NULL OR q.hold_until <= p_now)
      ORDER BY q.tier_rank DESC, q.rank_key DESC;
    LOOP
      FETCH walk INTO candidate;
      EXIT WHEN NOT FOUND;
      -- Locked (not yet updated) by an earlier walk of this call: already given.
      CONTINUE WHEN candidate.id = ANY (picked_ids);
      FOR k IN first_wanting .. member_count LOOP
        i := members[k];
        CONTINUE WHEN wanted[i] <= 0 OR (candidate.is_reserved AND candidate.assigned_tech_id IS DISTINCT FROM p_tech_ids[i]);
        CONTINUE WHEN candidate.id = ANY (rejected_tickets)
          AND EXISTS (SELECT 1 FROM unnest(rejected_tickets, rejected_techs) AS x(ticket_id, tech_id) WHERE x.ticket_id = candidate.id AND x.tech_id = p_tech_ids[i]);
        SELECT q.id INTO locked_id FROM queue_tickets q
          WHERE q.msp_id = p_msp_id AND q.id = candidate.id AND q.state = 'queued' AND q.tier_rank <= walk_rank
            AND (q.hold_until IS NULL OR q.hold_until <= p_now) AND (NOT q.is_reserved OR q.assigned_tech_id = p_tech_ids[i])
          FOR UPDATE OF q SKIP LOCKED;
        IF FOUND THEN
          picked_ids := picked_ids || candidate.id;
          picked_techs := picked_techs || p_tech_ids[i];
          wanted[i] := wanted[i] - 1;
          group_wanted := group_wanted - 1;
        END IF;
        -- Taken, or held by another session (then nobody here can have it): the next row.
        EXIT;
      END LOOP;
      EXIT WHEN group_wanted = 0;
      WHILE first_wanting <= member_count AND wanted[members[first_wanting]] <= 0 LOOP
        first_wanting := first_wanting + 1;
      END LOOP;
    END LOOP;
    CLOSE walk;
  END LOOP;
  RETURN QUERY
    WITH claimed AS (
      UPDATE queue_tickets q SET state = 'claimed', assigned_tech_id = p.tech_id, claimed_at = p_now,
        is_reserved = false, hold_until = NULL, updated_at = p_now
      FROM unnest(picked_ids, picked_techs) AS p(id, tech_id)
      WHERE q.msp_id = p_msp_id AND q.id = p.id
      RETURNING q.*
    ), events AS (
      INSERT INTO queue_events (msp_id, queue_ticket_id, tech_id, kind, at)
      SELECT c.msp_id, c.id, c.assigned_tech_id, 'claimed', p_now FROM claimed c
    )
    SELECT * FROM claimed;
END
$$;
