import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'rosetta:public';

/** Routes that need no API key (health probes) or guard themselves (admin API). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
