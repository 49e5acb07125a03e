CREATE TYPE "public"."api_key_scope" AS ENUM('full', 'read_only');--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scope" "api_key_scope" DEFAULT 'full' NOT NULL;