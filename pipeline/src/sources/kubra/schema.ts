// Kubra StormCenter upstream shapes: currentState, configuration, report (V2 area tree), thematic areas.
import { z } from 'zod';

export const currentStateSchema = z
  .object({
    stormcenterDeploymentId: z.string().min(1),
    data: z
      .object({ interval_generation_data: z.string().min(1), cluster_interval_generation_data: z.string().optional() })
      .loose(),
  })
  .loose();

/** Reports are listed under config.reports (array, or object holding arrays) with an id and a type. */
export const reportRefSchema = z.object({ id: z.string().min(1), type: z.string().optional() }).loose();
export const configurationSchema = z.object({ config: z.object({ reports: z.unknown().optional() }).loose() }).loose();

export const countSchema = z.union([
  z.object({ val: z.number().nullable().optional(), masked: z.boolean().optional() }).loose(),
  z.number(),
  z.null(),
]);

export interface KubraArea {
  name?: string;
  area_name?: string;
  key?: string;
  areaId?: string;
  cust_a?: z.infer<typeof countSchema>;
  cust_s?: number | null;
  etr?: string | null;
  gotoMap?: { bbox?: number[] } | null;
  areas?: KubraArea[];
  [k: string]: unknown;
}

export const areaSchema: z.ZodType<KubraArea> = z.lazy(() =>
  z
    .object({
      name: z.string().optional(),
      area_name: z.string().optional(),
      key: z.string().optional(),
      areaId: z.string().optional(),
      cust_a: countSchema.optional(),
      cust_s: z.number().nullable().optional(),
      etr: z.string().nullable().optional(),
      gotoMap: z
        .object({ bbox: z.array(z.number()).length(4).optional() })
        .loose()
        .nullable()
        .optional(),
      areas: z.array(areaSchema).optional(),
    })
    .loose(),
);

export const reportSchema = z
  .object({
    file_data: z
      .object({
        areas: z.array(areaSchema),
        totals: z
          .object({ cust_a: countSchema.optional(), cust_s: z.number().nullable().optional() })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();

export const thematicSchema = z
  .object({
    file_data: z.array(
      z
        .object({
          id: z.string().optional(),
          title: z.string().optional(),
          desc: z
            .object({
              name: z.string().optional(),
              cust_a: countSchema.optional(),
              cust_s: z.number().nullable().optional(),
              etr: z.string().nullable().optional(),
            })
            .loose(),
        })
        .loose(),
    ),
  })
  .loose();

/** What fetch hands to normalize: the report when the deployment has one, the thematic areas otherwise; plus the
 * outages of the cluster layer when the registry asks for them. */
export type KubraRaw = ({ report: unknown } | { thematic: unknown }) & {
  clusters?: import('./clusters.ts').ClusterRecord[];
};
