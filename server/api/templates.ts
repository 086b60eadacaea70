// tRPC procedures for task templates (a project's saved task contracts): add (from fields or
// from a task), list, remove. Thin: the schemas of server/wire/templates.ts, one call into the
// core. The person's only.
import {
  templateAddInput,
  templateList,
  templateListInput,
  templateRemoveInput,
  templateView,
} from "../wire/templates";
import { callerProcedure, router } from "./trpc";

export const templatesRouter = router({
  add: callerProcedure
    .input(templateAddInput)
    .output(templateView)
    .mutation(({ ctx, input }) => ctx.services.templates.add(input)),
  list: callerProcedure
    .input(templateListInput)
    .output(templateList)
    .query(({ ctx, input }) => ctx.services.templates.list(input?.projectId)),
  remove: callerProcedure
    .input(templateRemoveInput)
    .output(templateView)
    .mutation(({ ctx, input }) => ctx.services.templates.remove(input)),
});
