/**
 * Catalog model profiles: per-category prior quality for models that no fitted data covers
 * (`profiles.json`, every figure with the benchmark it was mapped from). Used by the router for
 * candidates absent from the artefact.
 */
import profilesJson from './profiles.json';

export interface ProfileFigure {
  value: number;
  from: string;
}

export interface ModelProfile {
  sources: string[];
  quality: Record<string, ProfileFigure>;
  default: number;
}

export interface ProfileTable {
  version: string;
  models: Record<string, ModelProfile>;
}

export const PROFILES: ProfileTable = profilesJson as unknown as ProfileTable;

/** Quality assumed for a model with neither data nor profile. */
export const UNKNOWN_MODEL_QUALITY = 0.6;

function lookup(id: string, table: ProfileTable): ModelProfile | undefined {
  return table.models[id] ?? table.models[id.startsWith('rosetta/') ? id : `rosetta/${id}`];
}

/** Prior quality of a catalog model for a prompt category, with where the figure came from. */
export function profileQuality(id: string, category: string | undefined, table: ProfileTable = PROFILES): { quality: number; source: string } {
  const profile = lookup(id, table);
  if (!profile) return { quality: UNKNOWN_MODEL_QUALITY, source: 'no profile: neutral prior' };
  const figure = category ? profile.quality[category] : undefined;
  if (figure) return { quality: figure.value, source: `profile ${category}: ${figure.from}` };
  return { quality: profile.default, source: 'profile default' };
}

export function profiledModels(table: ProfileTable = PROFILES): string[] {
  return Object.keys(table.models).sort();
}
