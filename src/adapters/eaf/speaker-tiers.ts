import type { Annotation } from '../../model/annotation.js';
import type { Tier } from '../../model/tier.js';

/**
 * ELAN keeps who speaks on the tier (PARTICIPANT), not on the annotation: annotations whose
 * body.speaker differs from their tier's participant move to one tier per speaker, named
 * `tier (speaker)`, with PARTICIPANT set (a tier all of one speaker and without a participant just
 * takes it). Only independent tiers that no tier depends on are split, so no reference breaks.
 * The reader gives each annotation its tier's participant back as body.speaker.
 */
export function splitBySpeaker(tiers: Tier[], tierByName: Map<string, Tier>, byTier: Map<string, Annotation[]>): void {
  const parents = new Set(tiers.map((tier) => tier.parent).filter((parent): parent is string => parent !== null));
  for (let index = 0; index < tiers.length; index++) {
    const tier = tiers[index];
    if (tier.stereotype !== 'NONE' || parents.has(tier.name)) continue;
    const own = typeof tier.metadata.participant === 'string' && tier.metadata.participant !== '' ? tier.metadata.participant : undefined;
    const stay: Annotation[] = [];
    const bySpeaker = new Map<string, Annotation[]>();
    for (const annotation of byTier.get(tier.name) ?? []) {
      const speaker = annotation.body.speaker;
      if (typeof speaker !== 'string' || speaker === '' || speaker === own) stay.push(annotation);
      else bySpeaker.set(speaker, [...(bySpeaker.get(speaker) ?? []), annotation]);
    }
    if (bySpeaker.size === 0) continue;
    if (stay.length === 0 && bySpeaker.size === 1 && own === undefined) {
      const withParticipant: Tier = { ...tier, metadata: { ...tier.metadata, participant: [...bySpeaker.keys()][0] } };
      tiers[index] = withParticipant;
      tierByName.set(tier.name, withParticipant);
      continue;
    }
    byTier.set(tier.name, stay);
    for (const [speaker, list] of bySpeaker) {
      let name = `${tier.name} (${speaker})`;
      for (let n = 2; tierByName.has(name); n++) name = `${tier.name} (${speaker}) ${n}`;
      const speakerTier: Tier = { name, stereotype: 'NONE', parent: null, metadata: { ...tier.metadata, participant: speaker } };
      tiers.splice(++index, 0, speakerTier);
      tierByName.set(name, speakerTier);
      byTier.set(name, list);
    }
  }
}
