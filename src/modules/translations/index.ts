import './translation-settings.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { translationRoutes } from './translation-settings.rest.ts';

export const translationsModule: DomainModule = { name: 'translations', routes: translationRoutes };
