CREATE TYPE "public"."api_key_scope" AS ENUM('full', 'read_only', 'restricted');--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scope" "api_key_scope" DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "allowed_operations" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_operations_when_restricted" CHECK (("api_keys"."scope" = 'restricted') = ("api_keys"."allowed_operations" is not null));