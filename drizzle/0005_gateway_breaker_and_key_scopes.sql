CREATE TYPE "public"."api_key_scope" AS ENUM('full', 'read_only', 'restricted');--> statement-breakpoint
CREATE TYPE "public"."breaker_signal" AS ENUM('token_refused', 'not_found', 'auth_refused', 'found');--> statement-breakpoint
CREATE TABLE "gateway_breaker" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"opened_at" timestamp with time zone,
	"reason" text,
	"signal" "breaker_signal",
	"closed_at" timestamp with time zone,
	"closed_by" text,
	CONSTRAINT "gateway_breaker_singleton" CHECK ("gateway_breaker"."id" = 1),
	CONSTRAINT "gateway_breaker_opened_with_reason" CHECK (("gateway_breaker"."opened_at" is null) = ("gateway_breaker"."reason" is null))
);
--> statement-breakpoint
CREATE TABLE "gateway_signals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"signal" "breaker_signal" NOT NULL,
	"subject" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scope" "api_key_scope" DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_operations" text[];--> statement-breakpoint
CREATE INDEX "gateway_signals_window_idx" ON "gateway_signals" USING btree ("signal","created_at");--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_operations_when_restricted" CHECK (("api_keys"."scope" = 'restricted') = ("api_keys"."allowed_operations" is not null));