import { z } from 'zod';
import { infraShape, positiveInt, boolean, metricsShape, tracingShape } from '@vitalis/config';
import { TOPICS } from '@vitalis/kafka';

export const simulatorConfigShape = {
  ...infraShape,
  ...metricsShape(9467),
  ...tracingShape,
  SIM_PATIENTS: positiveInt(20),
  /** Numeric vitals per code per second, per patient. */
  SIM_RATE_HZ: z.coerce
    .number({ error: 'must be a positive number' })
    .positive('must be a positive number')
    .max(100, 'must be at most 100')
    .default(1),
  /** Fraction of patients that deteriorate (SpO2 falls; heart rate and respiratory rate rise) over minutes. */
  SIM_DETERIORATING_FRACTION: z.coerce.number({ error: 'must be a number from 0 to 1' }).min(0).max(1).default(0.15),
  SIM_ECG: boolean(true),
  /** One frame per monitor per tick (numerics + ECG chunks, ADR 0015); false: one record per observation. */
  SIM_FRAMES: boolean(true),
  SIM_TOPIC: z.string().min(1).default(TOPICS.vitalsObservations),
  SIM_SEED: positiveInt(42),
};
