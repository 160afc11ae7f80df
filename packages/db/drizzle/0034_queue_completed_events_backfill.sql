-- The activities reads count completions from the 'completed' queue events (3931dd5). A ticket its technician closed
-- without completing it first (A-113) before then had completed_at set but no 'completed' event, so the Dashboards lost
-- that completion. Each such completion gets the event a close writes now: the assigned technician's, at completed_at,
-- with the ticket's SLA due time. A completion is already recorded when a 'completed' event follows the ticket's last
-- mark incomplete (an earlier one was undone by it), so running this again adds nothing. Data only, additive: servers of
-- the previous release read the same events (docs/operations.md §7).
INSERT INTO "queue_events" ("msp_id", "queue_ticket_id", "tech_id", "kind", "details", "at")
SELECT q."msp_id", q."id", q."assigned_tech_id", 'completed',
  jsonb_build_object('slaDueAt', to_char(q."sla_due_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
  q."completed_at"
FROM "queue_tickets" AS q
CROSS JOIN LATERAL (
  SELECT coalesce(max(u."at"), '-infinity'::timestamptz) AS "at" FROM "queue_events" AS u
  WHERE u."msp_id" = q."msp_id" AND u."queue_ticket_id" = q."id" AND u."kind" = 'incomplete'
) AS undone
WHERE q."completed_at" IS NOT NULL AND q."assigned_tech_id" IS NOT NULL AND q."completed_at" > undone."at"
  AND NOT EXISTS (
    SELECT 1 FROM "queue_events" AS c
    WHERE c."msp_id" = q."msp_id" AND c."queue_ticket_id" = q."id" AND c."kind" = 'completed' AND c."at" > undone."at"
  );
