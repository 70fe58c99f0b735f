// Generated from @gitbook/api's OpenAPI document by test/platform/query-parameters.test.ts
// (UPDATE_GITBOOK_QUERY_TYPES=1 npx vitest run --project in-process test/platform/query-parameters.test.ts):
// the query parameters GitBook types as booleans, enums and integers, per operation we serve.
export type GitBookQueryType = 'boolean' | 'integer' | readonly string[];

export const GITBOOK_QUERY_TYPES: Readonly<Record<string, Readonly<Record<string, GitBookQueryType>>>> = {
  "getChangeRequestPDF": {
    "only": "boolean"
  },
  "getChangeRequestReviewById": {
    "format": [
      "document",
      "markdown"
    ]
  },
  "getCommentInChangeRequest": {
    "format": [
      "document",
      "markdown"
    ]
  },
  "getCommentInSpace": {
    "format": [
      "document",
      "markdown"
    ]
  },
  "getCommentReplyInChangeRequest": {
    "format": [
      "document",
      "markdown"
    ]
  },
  "getCommentReplyInSpace": {
    "format": [
      "document",
      "markdown"
    ]
  },
  "getCurrentRevision": {
    "metadata": "boolean",
    "computed": "boolean"
  },
  "getDocumentById": {
    "schema": [
      "current",
      "next"
    ]
  },
  "getFileById": {
    "metadata": "boolean",
    "computed": "boolean"
  },
  "getFileInChangeRequestById": {
    "metadata": "boolean",
    "computed": "boolean"
  },
  "getFileInRevisionById": {
    "metadata": "boolean",
    "computed": "boolean"
  },
  "getPageById": {
    "format": [
      "document",
      "markdown"
    ],
    "format.markdown.refs": [
      "relative",
      "stable"
    ],
    "metadata": "boolean",
    "computed": "boolean"
  },
  "getPageByPath": {
    "format": [
      "document",
      "markdown"
    ],
    "format.markdown.refs": [
      "relative",
      "stable"
    ],
    "metadata": "boolean",
    "cachedMetadata": "boolean",
    "computed": "boolean"
  },
  "getPageInChangeRequestById": {
    "format": [
      "document",
      "markdown"
    ],
    "format.markdown.refs": [
      "relative",
      "stable"
    ],
    "metadata": "boolean",
    "computed": "boolean"
  },
  "getPageInChangeRequestByPath": {
    "format": [
      "document",
      "markdown"
    ],
    "format.markdown.refs": [
      "relative",
      "stable"
    ],
    "metadata": "boolean",
    "cachedMetadata": "boolean",
    "computed": "boolean"
  },
  "getPageInRevisionById": {
    "format": [
      "document",
      "markdown"
    ],
    "format.markdown.refs": [
      "relative",
      "stable"
    ],
    "metadata": "boolean",
    "computed": "boolean"
  },
  "getPageInRevisionByPath": {
    "format": [
      "document",
      "markdown"
    ],
    "format.markdown.refs": [
      "relative",
      "stable"
    ],
    "metadata": "boolean",
    "cachedMetadata": "boolean",
    "computed": "boolean"
  },
  "getPublishedContentByUrl": {
    "redirectOnError": "boolean"
  },
  "getReviewsByChangeRequestId": {
    "format": [
      "document",
      "markdown"
    ],
    "outdated": "boolean"
  },
  "getRevisionById": {
    "metadata": "boolean",
    "computed": "boolean"
  },
  "getRevisionOfChangeRequestById": {
    "metadata": "boolean",
    "computed": "boolean"
  },
  "getRevisionSemanticChanges": {
    "metadata": "boolean",
    "computed": "boolean"
  },
  "getSiteCustomizationById": {
    "unmasked": "boolean"
  },
  "getSiteSpaceCustomizationById": {
    "unmasked": "boolean"
  },
  "listChangeRequestsForOrganization": {
    "finding": [
      "none",
      "all"
    ],
    "orderBy": [
      "updatedAt",
      "createdAt"
    ]
  },
  "listChangeRequestsForSpace": {
    "status": [
      "draft",
      "open",
      "archived",
      "merged"
    ],
    "orderBy": [
      "updatedAt",
      "createdAt"
    ]
  },
  "listCollectionsInOrganizationById": {
    "nested": "boolean"
  },
  "listCommentRepliesInChangeRequest": {
    "format": [
      "document",
      "markdown"
    ]
  },
  "listCommentRepliesInSpace": {
    "format": [
      "document",
      "markdown"
    ]
  },
  "listCommentsInChangeRequest": {
    "order": [
      "asc",
      "desc"
    ],
    "format": [
      "document",
      "markdown"
    ],
    "status": [
      "all",
      "open",
      "resolved"
    ]
  },
  "listCommentsInSpace": {
    "order": [
      "asc",
      "desc"
    ],
    "status": [
      "all",
      "open",
      "resolved"
    ],
    "format": [
      "document",
      "markdown"
    ]
  },
  "listFiles": {
    "metadata": "boolean",
    "computed": "boolean"
  },
  "listFilesInChangeRequestById": {
    "metadata": "boolean",
    "computed": "boolean"
  },
  "listFilesInRevisionById": {
    "metadata": "boolean",
    "computed": "boolean"
  },
  "listIntegrations": {
    "category": [
      "analytics",
      "collaboration",
      "content",
      "marketing",
      "visitor-auth",
      "other"
    ],
    "blocks": "boolean",
    "contentSources": "boolean",
    "scope": [
      "space:content:read",
      "space:content:write",
      "space:metadata:read",
      "space:metadata:write",
      "space:git:sync",
      "page:feedback:read",
      "site:metadata:read",
      "site:views:read",
      "site:script:inject",
      "site:script:cookies",
      "site:visitor:auth",
      "site:visitor:claims",
      "site:adaptive:read",
      "site:adaptive:write",
      "conversations:ingest",
      "openapi:read",
      "openapi:write"
    ],
    "target": [
      "all",
      "site",
      "space",
      "organization"
    ]
  },
  "listMembersInOrganizationById": {
    "order": [
      "asc",
      "desc"
    ],
    "sort": [
      "joinedAt",
      "lastSeenAt",
      "name"
    ]
  },
  "listPages": {
    "metadata": "boolean",
    "computed": "boolean"
  },
  "listPagesInChangeRequest": {
    "metadata": "boolean",
    "computed": "boolean"
  },
  "listPagesInRevisionById": {
    "metadata": "boolean",
    "computed": "boolean"
  },
  "listPermissionsAggregateInCollection": {
    "role": [
      "admin",
      "create",
      "edit",
      "review",
      "comment",
      "read"
    ]
  },
  "listPermissionsAggregateInSite": {
    "order": [
      "asc",
      "desc"
    ],
    "sort": [
      "joinedAt",
      "lastSeenAt",
      "name"
    ]
  },
  "listPermissionsAggregateInSpace": {
    "role": [
      "admin",
      "create",
      "edit",
      "review",
      "comment",
      "read"
    ]
  },
  "listSiteRedirects": {
    "draft": "boolean",
    "orderBy": [
      "createdAt",
      "updatedAt",
      "source"
    ]
  },
  "listSiteSpaces": {
    "default": "boolean"
  },
  "listSites": {
    "published": "boolean"
  },
  "listSpacesForOrganizationMember": {
    "order": [
      "asc",
      "desc"
    ]
  },
  "postCommentReplyInChangeRequest": {
    "format": [
      "document",
      "markdown"
    ]
  }
};
