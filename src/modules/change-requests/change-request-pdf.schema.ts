import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { changeRequestArgs } from './change-request.schema.ts';
import { changeRequestPdfUrl } from './change-request-pdf.ts';

const ChangeRequestPdf = builder.simpleObject('ChangeRequestPdf', {
  description: "Where to download a change request's content as a PDF",
  fields: (t) => ({
    url: t.string({
      description: 'Serves the PDF without a token, through a signature in the URL; valid for one to two hours',
      extensions: constrained({ format: 'uri' }),
    }),
  }),
});

builder.queryFields((t) => ({
  changeRequestPdf: t.field({
    type: ChangeRequestPdf,
    description:
      "A signed URL of a change request's revision as a PDF: every page in tree order, or one page with (unless `only`) its sub-pages",
    args: {
      ...changeRequestArgs,
      page: t.arg.string({ description: 'ID of a page of the change request: export this page (and its sub-pages unless `only`)' }),
      only: t.arg.boolean({ description: 'With `page`: that page alone, without its sub-pages', extensions: constrained({ default: false }) }),
    },
    resolve: (_root, args, ctx) => changeRequestPdfUrl(ctx, args.spaceId, args.changeRequestId, { page: args.page, only: args.only }),
  }),
}));
