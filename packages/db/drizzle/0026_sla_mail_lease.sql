-- An SLA alert mail taken to send carries a lease (decision 018): a process that dies between taking and sending leaves
-- it leased, and once the lease runs out another sweep takes it again, instead of the mail being lost. Additive: servers
-- of the previous release still mark a taken mail with sent_at alone, which reads here as sent (docs/operations.md §7).
ALTER TABLE "sla_alert_mails" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "sla_alert_mails_leased_idx" ON "sla_alert_mails" USING btree ("lease_expires_at") WHERE "sla_alert_mails"."lease_expires_at" is not null;
