import { Type } from "@sinclair/typebox";
import { commonFields, documentFields, taskFields } from "../documents/fields";
import { JsonText, Fields } from "../http/fields";

export type { ContextBlock } from "../analyze/agent/answer";

export const DECIDE_LIMITS = { instructionsChars: 20_000, fields: 10, contextBlocks: 50, contextChars: 200_000 } as const;

export const DecideBody = Fields(
  {
    instructions: Type.String({ minLength: 1, maxLength: DECIDE_LIMITS.instructionsChars, description: "the task and what makes a decision correct" }),
    schema: JsonText({ description: `JSON typed schema of the decision, at most ${DECIDE_LIMITS.fields} fields` }),
    context: JsonText({ description: `JSON array of {label, content} blocks (or a JSON string); up to ${DECIDE_LIMITS.contextBlocks} blocks and ${DECIDE_LIMITS.contextChars} characters in all` }),
    ...documentFields(),
    render: commonFields.render(),
    include_steps: commonFields.includeSteps(),
    ...taskFields(),
  },
  { required: ["instructions", "schema"] },
);

export const DecisionResult = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Record(Type.String(), Type.Any()),
    confidence: Type.Record(Type.String(), Type.Number({ minimum: 0, maximum: 1 })),
    reasoning: Type.String(),
    sources: Type.Array(Type.String()),
    steps: Type.Optional(Type.Array(Type.Object({ tool: Type.String() }, { additionalProperties: true }), { description: "the agent's tool calls, only with include_steps=true" })),
    model_used: Type.String({ description: "the provider's model id" }),
    warnings: Type.Array(Type.String()),
    credits_used: Type.Integer(),
    schema_format: Type.Literal("typed"),
  },
  { title: "DecisionResult" },
);
