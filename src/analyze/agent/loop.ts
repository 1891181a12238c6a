/**
 * runAgent is the tool loop of analyze, cross-analyze and decide: the model is offered the tools
 * (without response_format) and calls them until it stops asking or a budget runs out; each call
 * is executed, recorded as a step, and its result handed back. The final, typed answer is a
 * separate call (src/analyze/agent/answer.ts) with response_format json_schema over the whole
 * conversation, so the loop itself never has to produce JSON.
 *
 * Budgets: at most `maxSteps` tool calls and `maxTokens` tokens over the loop's calls; when one
 * runs out the loop stops and the final answer is asked for with what was found so far (the
 * `stopped` note says which budget ended it).
 */
import type Groq from "groq-sdk";
import type { ChatCompletionMessageParam } from "groq-sdk/resources/chat/completions";
import { withProviderPolicy } from "../../ai/groq";
import type { Compute, ToolContext } from "./tools";
import { runTool, toolSpecs } from "./tools";

/** AgentTools is what a caller gives runAgent: the tools' context, with the sandbox that opens this run's compute session. */
export type AgentTools = Omit<ToolContext, "compute"> & { compute: Compute };

export interface AgentBudget {
  /** maxSteps: tool calls allowed; 0 = no tools, the answer comes from the prompt alone */
  maxSteps: number;
  /** maxTokens: tokens (prompt + completion, summed over the loop's calls) before the loop stops */
  maxTokens: number;
}

/** Step is one tool call as the trace shows it (spec: "each entry names a tool"). */
export interface Step {
  step: number;
  tool: string;
  arguments: unknown;
  /** result: the start of what the tool returned (the model saw up to 12,000 characters) */
  result: string;
  ms: number;
  error?: string;
}

export interface AgentRun {
  messages: ChatCompletionMessageParam[];
  steps: Step[];
  tokens: number;
  /** stopped: why the loop ended before the model was done (a budget), if it did */
  stopped?: string;
}

/** TRACE_RESULT_CHARS: how much of each tool result the trace keeps. */
const TRACE_RESULT_CHARS = 600;

export async function runAgent(
  client: Groq,
  model: string,
  messages: ChatCompletionMessageParam[],
  agentTools: AgentTools,
  budget: AgentBudget,
): Promise<AgentRun> {
  if (budget.maxSteps <= 0) return { messages, steps: [], tokens: 0 };
  // One interpreter for this run alone (taken at its first compute call), ended with the run: no
  // state of one request's Python reaches another's.
  const compute = agentTools.compute.session();
  try {
    return await toolLoop(client, model, messages, { ...agentTools, compute }, budget);
  } finally {
    await compute.close();
  }
}

async function toolLoop(client: Groq, model: string, messages: ChatCompletionMessageParam[], tools: ToolContext, budget: AgentBudget): Promise<AgentRun> {
  const steps: Step[] = [];
  let tokens = 0;
  const specs = toolSpecs(tools.documents);
  const history = [...messages];
  for (;;) {
    if (steps.length >= budget.maxSteps) return { messages: history, steps, tokens, stopped: `the step budget (${budget.maxSteps} tool calls) was used up` };
    if (tokens >= budget.maxTokens) return { messages: history, steps, tokens, stopped: `the token budget (${budget.maxTokens}) was used up` };
    const completion = await withProviderPolicy(
      `agent step with model ${model}`,
      (signal) => client.chat.completions.create({ model, temperature: 0, messages: history, tools: specs, tool_choice: "auto" }, { signal }),
      { signal: tools.signal },
    );
    tokens += completion.usage?.total_tokens ?? 0;
    const message = completion.choices[0]?.message;
    const calls = message?.tool_calls ?? [];
    if (!message || calls.length === 0) {
      if (message?.content) history.push({ role: "assistant", content: message.content });
      return { messages: history, steps, tokens };
    }
    const allowed = calls.slice(0, Math.max(0, budget.maxSteps - steps.length));
    history.push({ role: "assistant", content: message.content ?? null, tool_calls: allowed });
    for (const call of allowed) {
      const started = performance.now();
      const output = await runTool(call.function.name, call.function.arguments, tools);
      const step: Step = {
        step: steps.length + 1,
        tool: call.function.name,
        arguments: argumentsOf(call.function.arguments),
        result: output.text.slice(0, TRACE_RESULT_CHARS),
        ms: Math.round(performance.now() - started),
        ...(output.error ? { error: output.error } : {}),
      };
      steps.push(step);
      history.push({ role: "tool", tool_call_id: call.id, content: `[step ${step.step}] ${output.text}` });
    }
  }
}

function argumentsOf(text: string): unknown {
  try {
    return JSON.parse(text || "{}");
  } catch {
    return text;
  }
}
