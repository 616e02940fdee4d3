import { GatewayError } from '@rosetta/canonical';
import { convertGeminiSchema } from './convert-gemini-schema';

describe('convertGeminiSchema', () => {
  it('turns an OpenAPI-subset Schema into JSON Schema', () => {
    expect(
      convertGeminiSchema(
        {
          type: 'OBJECT',
          title: 'Order',
          description: 'An order.',
          properties: {
            id: { type: 'STRING', pattern: '^o-', minLength: '3' },
            qty: { type: 'INTEGER', minimum: 1, maximum: 9, nullable: true },
            note: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }], nullable: true },
            kind: { type: 'STRING', enum: ['a', 'b'], default: 'a', example: 'b' },
          },
          required: ['id'],
          propertyOrdering: ['id', 'qty'],
          maxProperties: 4,
        },
        'tools[0].functionDeclarations[0].parameters',
      ),
    ).toEqual({
      type: 'object',
      title: 'Order',
      description: 'An order.',
      properties: {
        id: { type: 'string', pattern: '^o-', minLength: 3 },
        qty: { type: ['integer', 'null'], minimum: 1, maximum: 9 },
        note: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
        kind: { type: 'string', enum: ['a', 'b'], default: 'a', examples: ['b'] },
      },
      required: ['id'],
      maxProperties: 4,
    });
  });

  it('names the nested schema that is not an object', () => {
    expect(() => convertGeminiSchema({ type: 'ARRAY', items: 'STRING' }, 'generationConfig.responseSchema')).toThrow(
      expect.objectContaining({ param: 'generationConfig.responseSchema.items' }),
    );
    expect(() => convertGeminiSchema({ type: 'ARRAY', items: 'STRING' }, 'x')).toThrow(GatewayError);
  });
});
