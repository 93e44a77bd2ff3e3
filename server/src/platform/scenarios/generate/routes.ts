import { createHash } from 'node:crypto';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { Ajv } from 'ajv';
import { Type } from 'typebox';
import { AppError } from '../../../core/http/errors.ts';
import { refuseUnsafeInput } from '../../../core/http/input-checks.ts';
import { lazyValidator } from '../../../core/http/lazy-compile.ts';
import { withErrors } from '../../../core/http/schemas.ts';
import type { AppInstance } from '../../../core/http/types.ts';
import { createAjv } from '../../../core/http/validation.ts';
import { Scenario } from '../schemas.ts';
import { MAX_UPLOAD_BYTES, type UploadedFile } from './extract.ts';
import { refuseMalformedMultipart } from './multipart-errors.ts';
import { type ScenarioGenerator, USER_INPUT_MAX } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    uploadedFile: UploadedFile | null;
  }
}

const GenerateBody = Type.Object(
  {
    userInput: Type.Optional(
      Type.String({
        maxLength: USER_INPUT_MAX,
        description:
          'What to practise, in your words (e.g. "mock interview for a senior data engineer at Acme").',
      }),
    ),
    duration: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 240, description: 'Session length in minutes; default 30.' }),
    ),
    file: Type.Optional(
      Type.String({
        format: 'binary',
        description: 'Optional résumé or job description: plain text, Markdown or PDF, at most 5 MB.',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ userInput: 'Mock interview for a senior backend engineer at Acme Robotics', duration: 20 }],
  },
);

/**
 * Form fields arrive as text: unlike JSON bodies, this one is coerced ("20" → 20). Made, and the
 * route's validator compiled, on the route's first request rather than at every start.
 */
let formAjv: Ajv | undefined;
function formValidator(schema: object) {
  return lazyValidator(() => {
    formAjv ??= createAjv({ coerceTypes: true });
    return formAjv.compile(schema);
  });
}

/**
 * POST /scenarios/create-with-gpt. Multipart parsing is registered in this scope only. The file
 * is read into memory (at most 5 MB) and kept on the request; the body carries its name and
 * digest, so an idempotent retry with another file is a different request.
 */
export async function generateRoutes(app: AppInstance, deps: { scenarioGenerator: ScenarioGenerator }) {
  app.decorateRequest('uploadedFile', null);
  const bodyRead = refuseMalformedMultipart(app);
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 256 * 1024, parts: 12 },
    async onFile(part: MultipartFile) {
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw new AppError(
          'parameter_invalid',
          `Unexpected file field ${part.fieldname}: send the file as "file".`,
          {
            param: part.fieldname,
          },
        );
      }
      let data: Buffer;
      try {
        data = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError('payload_too_large', 'The file is larger than 5 MB.', {
            param: 'file',
            cause: error,
          });
        }
        // A file part cut short: the body ended before the part's boundary.
        throw new AppError('invalid_request', 'The file is cut short: the multipart body ended inside it.', {
          param: 'file',
          cause: error,
        });
      }
      this.uploadedFile = { filename: part.filename ?? '', mimetype: part.mimetype ?? '', data };
      (part as unknown as { value: string }).value =
        `${part.filename ?? 'file'};sha256=${createHash('sha256').update(data).digest('hex')}`;
    },
  });

  app.post(
    '/scenarios/create-with-gpt',
    {
      // It creates the scenario's persona and goals too.
      config: { scopes: ['scenarios:write', 'personas:write', 'goals:write'] },
      // The form fields arrive after the app-wide input check ran: check them once they are here.
      preValidation: [bodyRead, refuseUnsafeInput],
      validatorCompiler: ({ schema }) => formValidator(schema as object),
      schema: {
        tags: ['Scenarios'],
        operationId: 'createScenarioWithGpt',
        summary:
          'Generate a scenario (persona, Markdown script, scored goals) from a description and an optional résumé or job description. Uses the configured LLM, else the rule-based generator.',
        consumes: ['multipart/form-data'],
        body: GenerateBody,
        response: withErrors({
          201: Type.Object({
            success: Type.Literal(true),
            scenario_id: Type.String(),
            generator: Type.Union([Type.Literal('llm'), Type.Literal('offline')], {
              description:
                '`llm` when the configured model wrote it, `offline` for the rule-based generator.',
            }),
            data: Scenario,
          }),
        }),
      },
    },
    async (request, reply) => {
      const controller = new AbortController();
      // A client that hangs up stops the (possibly long) LLM call.
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      const result = await deps.scenarioGenerator.generate(
        request.principal,
        { userInput: request.body.userInput, duration: request.body.duration, file: request.uploadedFile },
        controller.signal,
      );
      return reply.status(201).send(result);
    },
  );
}
