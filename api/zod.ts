// zod extended with `.openapi()` once, so every schema can carry its OpenAPI metadata.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);
export { z };
