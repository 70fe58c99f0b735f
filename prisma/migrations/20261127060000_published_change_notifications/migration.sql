-- Instances keep rendered public pages of published sites in memory (src/http/page-memory.ts) and must
-- forget them as soon as anything a page is drawn from changes — whichever instance, CLI or script
-- wrote it. Every write to those tables notifies the channel "published_changes" (once per statement,
-- delivered at commit); every instance LISTENs to it and drops what it kept. Revisions, pages and files
-- never change once written: a merge reaches readers through "Space"."revisionId".

CREATE OR REPLACE FUNCTION notify_published_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('published_changes', TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "Organization_published_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Organization"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_published_change();
CREATE TRIGGER "Site_published_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Site"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_published_change();
CREATE TRIGGER "SiteSection_published_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "SiteSection"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_published_change();
CREATE TRIGGER "SiteSectionGroup_published_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "SiteSectionGroup"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_published_change();
CREATE TRIGGER "SiteSpace_published_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "SiteSpace"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_published_change();
CREATE TRIGGER "ShareLink_published_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ShareLink"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_published_change();
CREATE TRIGGER "SiteRedirect_published_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "SiteRedirect"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_published_change();
-- Spaces change often for reasons no page shows (the counters of change requests and comments, kept by
-- triggers): only the columns a page is drawn from.
CREATE TRIGGER "Space_published_change" AFTER INSERT OR DELETE OR TRUNCATE ON "Space"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_published_change();
CREATE TRIGGER "Space_published_update" AFTER UPDATE OF "revisionId", "title", "emoji", "deletedAt", "organizationId", "visibility" ON "Space"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_published_change();
